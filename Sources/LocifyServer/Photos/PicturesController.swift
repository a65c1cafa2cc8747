import Fluent
import Foundation
import LocifyCore
import SQLKit
import Vapor

/// `/store/avatars/{contact}` (the picture a contact shows: its photo, its Gravatar or its initials) and
/// `/store/photos/{uuid}.{ext}` (a stored photo). Both answer an API token, a web session, or a signed
/// link with no credentials at all; the image itself, never a redirect or a page.
struct PicturesController: RouteCollection {
    /// How long a client may keep a picture whose URL names its version: the URL changes with the picture.
    static let versionedMaxAge = 7 * 86_400
    static let initialsSizes = 16...512
    static let defaultInitialsSize = 200

    func boot(routes: any RoutesBuilder) throws {
        routes.get(PhotoPaths.avatar, use: avatar)
        routes.get(PhotoPaths.storedPhoto, use: photo)
    }

    func avatar(request: Request) async throws -> Response {
        guard let contactID = request.pathText(.contactID).flatMap(Int.init) else { throw AppError.notFound }
        let askedVersion = request.queryParameters["v"] ?? ""
        let access = try await request.pictureAccess(
            subject: PictureLinks.avatarSubject(contactID: contactID, version: askedVersion))
        guard let contact = try await StoredPictures.contact(contactID, on: request.db),
            access.mayOpen(ownedBy: contact.ownerID)
        else { throw AppError.notFound }
        let version = contact.avatarVersion
        // A link to an older picture, or to none in particular, still shows the contact's picture, but the
        // client asks again (a 304 while it is the same) before showing it next time.
        let cacheControl =
            askedVersion == version
            ? "private, max-age=\(Self.versionedMaxAge)" : "private, max-age=0, must-revalidate"
        switch (contact.avatar.source, contact.avatar.imageDigest) {
        case (.photo, let digest?), (.gravatar, let digest?):
            return try await StoredPictures.response(
                ownerID: contact.ownerID, digest: digest, etag: version, cacheControl: cacheControl, for: request)
        default:
            let size =
                request.queryParameters["size"].flatMap { Int($0) }.map {
                    min(max($0, Self.initialsSizes.lowerBound), Self.initialsSizes.upperBound)
                } ?? Self.defaultInitialsSize
            let drawing = Self.prefersSVG(request.headers) ? InitialsDrawing.svg : .png
            let etag = "\(version)-\(size)" + drawing.etagSuffix
            if let unchanged = StoredPictures.notModified(etag: etag, cacheControl: cacheControl, for: request) {
                unchanged.headers.replaceOrAdd(name: .vary, value: "Accept")
                return unchanged
            }
            let entry = try await initials(of: contact, size: size, drawing: drawing, for: request)
            let response = StoredPictures.imageResponse(
                entry.picture, etag: etag + entry.etagSuffix, cacheControl: cacheControl)
            // One URL, two pictures: caches must keep the SVG for browsers apart from the PNG for apps.
            response.headers.replaceOrAdd(name: .vary, value: "Accept")
            return response
        }
    }

    private enum InitialsDrawing {
        case svg
        case png

        var etagSuffix: String { self == .svg ? "" : "-png" }
    }

    /// The initials as SVG, or as PNG through the configured rasteriser; without one (or when it fails) the
    /// PNG is the contact's colour disc alone, under an ETag of its own so the letters replace it once they
    /// can be drawn.
    private func initials(
        of contact: Contact, size: Int, drawing: InitialsDrawing, for request: Request
    ) async throws -> (picture: PictureCache.Entry, etagSuffix: String) {
        // The drawing names the contact (its accessible label), so it is kept per name, not per initials.
        let key = "initials:\(size):\(contact.defaultAvatarColor):\(contact.completeName)"
        let cache = request.application.pictureCache
        let svg = {
            Avatar.initialsSVG(name: contact.completeName, background: contact.defaultAvatarColor, size: size)
        }
        switch drawing {
        case .svg:
            if let kept = cache.entry(key) { return (kept, "") }
            let made = PictureCache.Entry(body: ByteBuffer(string: svg()), contentType: "image/svg+xml")
            cache.keep(made, for: key)
            return (made, "")
        case .png:
            if let kept = cache.entry("png:" + key) { return (kept, "") }
            do {
                let png = try await request.dependencies.rasterizer.png(of: svg())
                let made = PictureCache.Entry(body: ByteBuffer(bytes: png), contentType: "image/png")
                cache.keep(made, for: "png:" + key)
                return (made, "")
            } catch {
                let discKey = "disc:\(size):\(contact.defaultAvatarColor)"
                if let kept = cache.entry(discKey) { return (kept, "-disc") }
                // Said once per disc drawn, not on every request that falls back to a kept one.
                if (error as? OutsideServiceError)?.reason != .notConfigured {
                    request.logger.warning("Initials drawn as a plain disc: \(error)")
                }
                let disc = try Avatar.discPNG(background: contact.defaultAvatarColor, size: size)
                let made = PictureCache.Entry(body: ByteBuffer(bytes: disc), contentType: "image/png")
                cache.keep(made, for: discKey)
                return (made, "-disc")
            }
        }
    }

    /// Whether the client says it reads SVG and likes it at least as well as PNG. Browsers name
    /// `image/svg+xml` in their Accept; apps' image views ask for `*/*` or `image/*` and read raster
    /// images only, so neither of those counts as SVG.
    static func prefersSVG(_ headers: HTTPHeaders) -> Bool {
        let preferences = headers.accept
        func quality(_ matches: (HTTPMediaType) -> Bool) -> Double {
            preferences.filter { matches($0.mediaType) }.map { $0.q ?? 1 }.max() ?? 0
        }
        let svg = quality { $0.type == "image" && $0.subType == "svg+xml" }
        let png = quality { ($0.type == "image" || $0.type == "*") && ($0.subType == "png" || $0.subType == "*") }
        return svg > 0 && svg >= png
    }

    func photo(request: Request) async throws -> Response {
        try await StoredPictures.file(request, folder: "photos") { uuid in
            try await StoredPictures.photo(uuid, on: request.db).map {
                StoredPictures.File(storedFilename: $0.storedFilename, ownerID: $0.ownerID, digest: $0.digest)
            }
        }
    }
}

/// Who may open a picture: anyone holding a valid signed link, or the account a token or session is for.
enum PictureAccess: Equatable {
    case signedLink
    case account(Int)

    func mayOpen(ownedBy ownerID: Int) -> Bool {
        switch self {
        case .signedLink: true
        case .account(let id): id == ownerID
        }
    }
}

/// Why a picture link without credentials was refused.
enum PictureLinkError: AppFailure, Equatable {
    case missing
    case forged
    case expired

    var kind: FailureKind { .linkRefused }

    var messages: [String] {
        switch self {
        case .missing:
            ["This picture needs an API token, a signed-in session, or a signed link (the URL the API gives)."]
        case .forged: ["This picture link's signature is not valid."]
        case .expired: ["This picture link has expired; fetch the contact or photo again for a new one."]
        }
    }
}

extension Request {
    /// A valid signature for `subject` opens the picture; otherwise a token or session says whose pictures
    /// may be opened. Without either, the refusal says what was wrong with the link.
    func pictureAccess(subject: String) async throws -> PictureAccess {
        let signer = try await application.pictureLinks.load(on: db, newSecret: dependencies.newSecret)
        var refusal = PictureLinkError.missing
        let signature = queryParameters["signature"]
        let expires = queryParameters["expires"]
        if signature != nil || expires != nil {
            refusal = .forged
            if let signature, let expiry = expires.flatMap({ Int($0) }) {
                switch signer.verify(signature, of: subject, expires: expiry, now: now) {
                case .valid: return .signedLink
                case .expired: refusal = .expired
                case .forged: refusal = .forged
                }
            }
        }
        if let token = headers.bearerAuthorization?.token {
            guard let user = try await accounts.user(forToken: token) else { throw AppError.unauthenticated }
            auth.login(user)
        } else {
            try await authenticateFromSessionCookie()
        }
        guard let user = auth.get(AuthenticatedUser.self) else { throw refusal }
        return .account(user.id)
    }
}

/// Reads pictures for the store routes: by id or UUID alone, since a signed link names no account; the
/// caller checks access against the owner.
enum StoredPictures {
    static func contact(_ id: Int, on database: any Database) async throws -> Contact? {
        let rows = try await database.plainRows(
            #"SELECT \#(ContactRows.columnList) FROM "contacts" WHERE "id" = \#(literal: id)"#,
            columns: ContactRows.columns)
        return try rows.first.map(ContactRows.contact(from:))
    }

    static func photo(_ uuid: UUID, on database: any Database) async throws -> Photo? {
        let rows = try await database.plainRows(
            #"SELECT \#(PhotosTable.photoColumns.list) FROM "photos" WHERE "uuid" = \#(bind: uuid)"#,
            columns: PhotosTable.photoColumns.names)
        return try rows.first.map(PhotosTable.photo(from:))
    }

    /// A stored picture as its route finds it by the uuid in its name.
    struct File {
        let storedFilename: String
        let ownerID: Int
        let digest: String
    }

    /// `/store/{folder}/{uuid}.{ext}`: the picture `find` reads by its uuid, to whoever holds its signed
    /// link or is its owner; to anyone else as absent as a missing one. Its bytes never change under its
    /// name, so clients keep it.
    static func file(_ request: Request, folder: String, find: (UUID) async throws -> File?) async throws
        -> Response
    {
        guard let file = request.pathText(.photoFile), let dot = file.firstIndex(of: "."),
            let uuid = UUID(uuidString: String(file[..<dot]))
        else { throw AppError.notFound }
        let name = folder + "/" + file
        let access = try await request.pictureAccess(subject: PictureLinks.photoSubject(name))
        guard let found = try await find(uuid), found.storedFilename == name, access.mayOpen(ownedBy: found.ownerID)
        else { throw AppError.notFound }
        return try await response(
            ownerID: found.ownerID, digest: found.digest, etag: String(found.digest.prefix(16)),
            cacheControl: "private, max-age=\(PicturesController.versionedMaxAge), immutable", for: request)
    }

    /// The stored image `digest` of `ownerID`: from memory when it is small and was sent before, else from
    /// the database, in parts when it is large.
    static func response(
        ownerID: Int, digest: String, etag: String, cacheControl: String, for request: Request
    ) async throws -> Response {
        if let unchanged = notModified(etag: etag, cacheControl: cacheControl, for: request) { return unchanged }
        let cache = request.application.pictureCache
        let key = PictureCache.storedKey(ownerID: ownerID, digest: digest)
        if let entry = cache.entry(key) { return imageResponse(entry, etag: etag, cacheControl: cacheControl) }
        let blobs = PhotoBlobs(database: request.db, ownerID: ownerID)
        guard let size = try await blobs.byteCount(digest: digest) else { throw AppError.notFound }
        let partSize = PictureCache.largestEntry
        let first = try await blobs.part(digest: digest, offset: 0, length: min(size, partSize))
        // The stored bytes were checked when they arrived; their header names the type once more.
        let contentType = ImageInfo(first)?.format.mimeType ?? "application/octet-stream"
        guard size > partSize else {
            let entry = PictureCache.Entry(body: ByteBuffer(bytes: first), contentType: contentType)
            cache.keep(entry, for: key)
            return imageResponse(entry, etag: etag, cacheControl: cacheControl)
        }
        let response = Response(status: .ok)
        addHeaders(to: response, contentType: contentType, etag: etag, cacheControl: cacheControl)
        let database = request.db
        response.body = Response.Body(
            asyncStream: { writer in
                do {
                    try await writer.writeBuffer(ByteBuffer(bytes: first))
                    var offset = first.count
                    while offset < size {
                        let part = try await blobs.part(
                            digest: digest, offset: offset, length: min(partSize, size - offset))
                        guard !part.isEmpty else { break }
                        try await writer.writeBuffer(ByteBuffer(bytes: part))
                        offset += part.count
                    }
                    try await writer.write(.end)
                } catch {
                    database.logger.warning("A stored picture could not be sent whole: \(error)")
                    try? await writer.write(.error(error))
                }
            }, count: size)
        return response
    }

    static func imageResponse(_ entry: PictureCache.Entry, etag: String, cacheControl: String) -> Response {
        let response = Response(status: .ok, body: .init(buffer: entry.body))
        addHeaders(to: response, contentType: entry.contentType, etag: etag, cacheControl: cacheControl)
        return response
    }

    /// A 304 when the client's `If-None-Match` names this picture's ETag.
    static func notModified(etag: String, cacheControl: String, for request: Request) -> Response? {
        guard let header = request.headers.first(name: .ifNoneMatch) else { return nil }
        let quoted = "\"\(etag)\""
        let matches = header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == quoted || tag == "W/" + quoted
        }
        guard matches else { return nil }
        let response = Response(status: .notModified)
        response.headers.replaceOrAdd(name: .eTag, value: quoted)
        response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl)
        return response
    }

    private static func addHeaders(to response: Response, contentType: String, etag: String, cacheControl: String) {
        response.headers.replaceOrAdd(name: .contentType, value: contentType)
        response.headers.replaceOrAdd(name: .eTag, value: "\"\(etag)\"")
        response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl)
    }
}
