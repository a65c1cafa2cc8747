import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Who may open avatar and photo URLs, and how they are cached.
final class PictureAccessTests: XCTestCase {
    /// The path and query of a URL the API gave, for sending it back to the test application.
    private func local(_ url: String) -> String {
        url.replacingOccurrences(of: "http://127.0.0.1:8080", with: "")
    }

    /// `url` with its query parameter `name` set to `value` (or removed when nil).
    private func changing(_ url: String, _ name: String, to value: String?) -> String {
        var components = URLComponents(string: url)
        var items = components?.queryItems?.filter { $0.name != name } ?? []
        if let value { items.append(URLQueryItem(name: name, value: value)) }
        components?.queryItems = items
        return components?.string ?? url
    }

    func testTheAccessMatrixForAvatarsAndPhotos() async throws {
        try await forEachDatabase { app, clock, database in
            // Initials come as PNG to a client that does not name SVG; here without letters, as without rsvg.
            app.dependencies.rasterizer = RasterizerOff()
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "eve@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let photo = try await app.uploadPhoto(TestImages.gif, contactID: ada.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let contact = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data
            let avatarURL = self.local(try XCTUnwrap(contact.information.avatar.url))
            let photoURL = self.local(photo.link)
            let bareAvatar = "/store/avatars/\(ada.id)"
            let barePhoto = "/store/\(photo.newFilename)"
            let browser = WebClient(app: app)
            try await browser.get("/login")
            try await browser.post("/login", form: ["email": account.email, "password": account.password])
            for (label, signed, bare) in [("avatar", avatarURL, bareAvatar), ("photo", photoURL, barePhoto)] {
                let context = "\(database) \(label)"
                // A valid signature needs no credentials.
                let bySignature = try await app.send(.GET, signed)
                XCTAssertEqual(bySignature.status, .ok, "\(context): \(bySignature.text)")
                XCTAssertEqual(bySignature.headers.first(name: "X-Content-Type-Options"), "nosniff")
                XCTAssertTrue(bySignature.headers.first(name: .cacheControl)?.hasPrefix("private, max-age=") ?? false)
                // A token or a session opens the bare URL, for their own account only.
                let byToken = try await app.send(.GET, bare, headers: account.bearer)
                XCTAssertEqual(byToken.status, .ok, context)
                XCTAssertEqual(byToken.body, bySignature.body)
                let bySession = try await browser.get(bare)
                XCTAssertEqual(bySession.status, .ok, context)
                let otherAccount = try await app.send(.GET, bare, headers: other.bearer)
                XCTAssertEqual(otherAccount.status, .notFound, context)
                XCTAssertEqual(otherAccount.errorCode, 31)
                let badToken = try await app.send(.GET, bare, headers: ["Authorization": "Bearer nonsense"])
                XCTAssertEqual(badToken.status, .unauthorized, context)
                // Without credentials: a missing, forged or changed signature is a 401 that says which.
                let missing = try await app.send(.GET, bare)
                XCTAssertEqual(missing.status, .unauthorized, context)
                XCTAssertTrue(missing.text.contains("signed link"), missing.text)
                let forged = try await app.send(
                    .GET, changing(signed, "signature", to: String(repeating: "0", count: 32)))
                XCTAssertEqual(forged.status, .unauthorized, context)
                XCTAssertTrue(forged.text.contains("not valid"), forged.text)
                let stretched = try await app.send(.GET, changing(signed, "expires", to: "4102444800"))
                XCTAssertEqual(stretched.status, .unauthorized, "\(context): a later expiry is not signed")
                let unsignedOnly = try await app.send(.GET, changing(signed, "signature", to: nil))
                XCTAssertEqual(unsignedOnly.status, .unauthorized, context)
                // A forged link with a valid token is still the token's account's to open.
                let forgedWithToken = try await app.send(
                    .GET, changing(signed, "signature", to: "00"), headers: account.bearer)
                XCTAssertEqual(forgedWithToken.status, .ok, context)
            }
            // A week and a day later the links have expired; the API hands out new ones.
            clock.advance(by: 8 * 86_400 + 1)
            for signed in [avatarURL, photoURL] {
                let expired = try await app.send(.GET, signed)
                XCTAssertEqual(expired.status, .unauthorized)
                XCTAssertTrue(expired.text.contains("expired"), expired.text)
            }
            let fresh = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data
            let renewed = try await app.send(.GET, self.local(try XCTUnwrap(fresh.information.avatar.url)))
            XCTAssertEqual(renewed.status, .ok)
            // Another account's contact through a signed link for a different contact id is forged.
            let eve = try await app.makeContact(for: other, ContactDraft(firstName: "Eve"))
            let swapped = self.local(try XCTUnwrap(fresh.information.avatar.url))
                .replacingOccurrences(of: "/store/avatars/\(ada.id)?", with: "/store/avatars/\(eve.id)?")
            let stolen = try await app.send(.GET, swapped)
            XCTAssertEqual(stolen.status, .unauthorized)
            let nothing = try await app.send(.GET, "/store/avatars/999999", headers: account.bearer)
            XCTAssertEqual(nothing.status, .notFound)
        }
    }

    func testPicturesAnswerWithStrongETagsAnd304() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Дмитрий", lastName: "Иванов"))
            let bare = "/store/avatars/\(ada.id)"
            var svgReader = account.bearer
            svgReader.replaceOrAdd(name: .accept, value: "image/svg+xml")
            let first = try await app.send(.GET, bare + "?size=64", headers: svgReader)
            XCTAssertEqual(first.status, .ok)
            XCTAssertEqual(first.headers.contentType?.description, "image/svg+xml")
            XCTAssertTrue(first.text.contains(">ДИ</text>"), first.text)
            XCTAssertTrue(first.text.contains(#"width="64""#), first.text)
            XCTAssertTrue(first.text.contains(#"fill="\#(ada.defaultAvatarColor)""#))
            let etag = try XCTUnwrap(first.headers.first(name: .eTag))
            XCTAssertTrue(etag.hasPrefix("\"") && !etag.hasPrefix("W/"), "strong: \(etag)")
            XCTAssertEqual(
                first.headers.first(name: .cacheControl), "private, max-age=0, must-revalidate",
                "a URL without a version")
            var conditional = svgReader
            conditional.replaceOrAdd(name: .ifNoneMatch, value: etag)
            let again = try await app.send(.GET, bare + "?size=64", headers: conditional)
            XCTAssertEqual(again.status, .notModified, "\(database)")
            XCTAssertEqual(again.body.readableBytes, 0)
            // Another size is another picture.
            let larger = try await app.send(.GET, bare + "?size=128", headers: conditional)
            XCTAssertEqual(larger.status, .ok)
            XCTAssertNotEqual(larger.headers.first(name: .eTag), etag)
            // Sizes are kept within reason.
            let huge = try await app.send(.GET, bare + "?size=100000", headers: svgReader)
            XCTAssertTrue(huge.text.contains(#"width="512""#))
            // A photo: the ETag follows the bytes, the URL names them and may be kept a week.
            let photo = try await app.uploadPhoto(TestImages.png(), contactID: ada.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let chosen = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer,
                json: #"{"source": "photo", "photo_id": \#(photo.id)}"#
            ).decoded(DataEnvelope<ContactResource>.self).data
            let avatarURL = self.local(try XCTUnwrap(chosen.information.avatar.url))
            let served = try await app.send(.GET, avatarURL)
            XCTAssertEqual(served.headers.first(name: .cacheControl), "private, max-age=604800")
            let photoTag = try XCTUnwrap(served.headers.first(name: .eTag))
            XCTAssertNotEqual(photoTag, etag)
            let unchanged = try await app.send(
                .GET, avatarURL, headers: [HTTPHeaders.Name.ifNoneMatch.description: photoTag])
            XCTAssertEqual(unchanged.status, .notModified)
            let file = try await app.send(.GET, self.local(photo.link))
            XCTAssertEqual(file.headers.first(name: .eTag), photoTag)
            XCTAssertEqual(file.headers.first(name: .cacheControl), "private, max-age=604800, immutable")
        }
    }

    func testInitialsAreDrawnInEveryScript() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let names: [(ContactDraft, String)] = [
                (ContactDraft(firstName: "Ada", lastName: "Lovelace"), "AL"),
                (ContactDraft(firstName: "Дмитрий", lastName: "Иванов"), "ДИ"),
                (ContactDraft(firstName: "王", lastName: "芳"), "王芳"),
                (ContactDraft(firstName: "محمد", lastName: "علي"), "مع"),
                (ContactDraft(firstName: "👩‍🚀", lastName: "Sally"), "👩‍🚀S"),
                (ContactDraft(firstName: "<script>", lastName: "&amp;"), "<&"),
            ]
            for (draft, initials) in names {
                let contact = try await app.makeContact(for: account, draft)
                var svgReader = account.bearer
                svgReader.replaceOrAdd(name: .accept, value: "image/svg+xml")
                let svg = try await app.send(.GET, "/store/avatars/\(contact.id)", headers: svgReader)
                XCTAssertEqual(svg.headers.contentType?.description, "image/svg+xml")
                let escaped = initials.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                    of: "<", with: "&lt;")
                XCTAssertTrue(svg.text.contains(">\(escaped)</text>"), "\(database) \(initials): \(svg.text)")
                XCTAssertFalse(svg.text.contains("<script"), "names are escaped")
                // The letters' colour meets WCAG AA on the contact's colour.
                XCTAssertTrue(svg.text.contains(#"fill="\#(Avatar.textColor(on: contact.defaultAvatarColor))""#))
                XCTAssertEqual(svg.headers.first(name: "X-Content-Type-Options"), "nosniff")
            }
        }
    }

    func testALargePhotoIsSentWholeInParts() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let bytes = TestImages.png(filler: 3 * 1024 * 1024 + 17, seed: 9)
            let photo = try await app.uploadPhoto(bytes, contactID: ada.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let file = try await app.send(.GET, self.local(photo.link))
            XCTAssertEqual(file.status, .ok)
            XCTAssertEqual(file.body.readableBytes, bytes.count, "\(database)")
            XCTAssertEqual(Array(file.body.readableBytesView), bytes)
            XCTAssertEqual(file.headers.contentType?.description, "image/png")
        }
    }
}
