import Fluent
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Signed links to pictures: each contact's avatar and each stored photo. The key is made on first
/// start and kept in `server_secrets`, so every server on one database signs and checks alike.
final class PictureLinks: Sendable {
    static let secretName = "picture-links"
    private let signer = NIOLockedValueBox<LinkSigner?>(nil)
    /// The path and query of each avatar link made lately, by contact: lists show the same contacts again
    /// and again, and signing each anew was a third of a contact list's time. An entry is used only for
    /// the same picture version and expiry, so it is never stale; when full the cache starts again.
    private let avatarLinks = NIOLockedValueBox<[Int: AvatarLink]>([:])
    static let avatarLinkCapacity = 50_000

    struct AvatarLink {
        let version: String
        let expires: Int
        let pathAndQuery: String
    }

    /// `/store/avatars/{id}?v=…&expires=…&signature=…`, from the cache when it was made before.
    func avatarPathAndQuery(contactID: Int, version: String, expires: Int) -> String {
        if let known = avatarLinks.withLockedValue({ $0[contactID] }), known.version == version,
            known.expires == expires
        {
            return known.pathAndQuery
        }
        let unsigned = PhotoPaths.avatar(contactID).path + "?v=" + version
        // Without the key (a process that has served nothing yet) the link still works with credentials.
        guard let signer = current else { return unsigned }
        let subject = Self.avatarSubject(contactID: contactID, version: version)
        let made = AvatarLink(
            version: version, expires: expires,
            pathAndQuery: unsigned + "&expires=\(expires)&signature=" + signer.signature(of: subject, expires: expires))
        avatarLinks.withLockedValue { cache in
            if cache.count >= Self.avatarLinkCapacity { cache.removeAll(keepingCapacity: true) }
            cache[contactID] = made
        }
        return made.pathAndQuery
    }

    /// The signer once loaded; nil only before the first request of a fresh process.
    var current: LinkSigner? { signer.withLockedValue { $0 } }

    /// The signer, reading (or on first start creating) the key. Two servers starting at once both try to
    /// insert; the one that loses reads the winner's key.
    func load(on database: any Database, newSecret: () -> String) async throws -> LinkSigner {
        if let loaded = current { return loaded }
        try await TableWriter(ServerSecretsTable.self, on: database).insert(
            [.name: Self.secretName, .value: newSecret(), .createdAt: Date()], onConflict: [.name])
        let rows = try await database.plainRows(
            #"SELECT "value" FROM "server_secrets" WHERE "name" = \#(bind: Self.secretName)"#, columns: ["value"])
        guard let secret = try rows.first?.text(0) else {
            throw Abort(.internalServerError, reason: "the picture-link key could not be stored")
        }
        let loaded = LinkSigner(secret: Data(secret.utf8))
        signer.withLockedValue { $0 = loaded }
        return loaded
    }

    static func avatarSubject(contactID: Int, version: String) -> String { "avatar:\(contactID):\(version)" }
    static func photoSubject(_ storedFilename: String) -> String { "file:\(storedFilename)" }
}

/// Loads the link key before the first request that builds or checks a picture link. Future-based and
/// a pass-through once loaded: every API and page request goes through it.
struct PictureLinksMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let links = request.application.pictureLinks
        guard links.current == nil else { return next.respond(to: request) }
        let newSecret = request.dependencies.newSecret
        return request.eventLoop.makeFutureWithTask {
            _ = try await links.load(on: request.db, newSecret: newSecret)
        }.flatMap { next.respond(to: request) }
    }
}

extension Application {
    private struct PictureLinksKey: StorageKey {
        typealias Value = PictureLinks
    }

    var pictureLinks: PictureLinks {
        get { configured(PictureLinksKey.self) }
        set { storage[PictureLinksKey.self] = newValue }
    }
}

extension Request {
    /// The contact's avatar URL: it names the picture's version, so it changes when the picture does,
    /// and carries a signature valid for about a week. `base` and `expires` are worked out once per list.
    func avatarURL(_ contact: Contact, base: String? = nil, expires: Int? = nil) -> String {
        (base ?? baseURL)
            + application.pictureLinks.avatarPathAndQuery(
                contactID: contact.id, version: contact.avatarVersion, expires: expires ?? pictureLinkExpiry)
    }

    /// A stored photo's link (Monica's `link`), signed like avatars.
    func photoLink(_ photo: Photo, base: String? = nil, expires: Int? = nil) -> String {
        storedFileLink(photo.storedFilename, base: base, expires: expires)
    }

    /// The link of a stored picture (`/store/{storedFilename}`, served by `StoredPictures.file`), signed
    /// like avatars.
    func storedFileLink(_ storedFilename: String, base: String? = nil, expires: Int? = nil) -> String {
        application.pictureLinks.storedFileLink(
            storedFilename, base: base ?? baseURL, expires: expires ?? pictureLinkExpiry)
    }

    /// The expiry of links made now.
    var pictureLinkExpiry: Int { LinkSigner.expiry(now: now) }
}

extension PictureLinks {
    /// `{base}/store/{storedFilename}`, signed until `expires`: for requests, and for exports made on the
    /// command line (at the configured public address).
    func storedFileLink(_ storedFilename: String, base: String, expires: Int) -> String {
        let url = base + SitePaths.store.path + "/" + storedFilename
        // Without the key (a process that has served nothing yet) the link still works with credentials.
        guard let signer = current else { return url }
        return url + "?expires=\(expires)&signature="
            + signer.signature(of: Self.photoSubject(storedFilename), expires: expires)
    }
}
