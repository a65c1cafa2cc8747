import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class PhotosAPITests: XCTestCase {
    func testEachFormatIsStoredWithItsSizeInMonicasShape() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let formats: [([UInt8], String, Int, Int)] = [
                (TestImages.png(), "image/png", 640, 480), (TestImages.jpeg, "image/jpeg", 1920, 1080),
                (TestImages.gif, "image/gif", 320, 200), (TestImages.webp, "image/webp", 400, 300),
            ]
            for (bytes, type, width, height) in formats {
                // The declared type and name say PNG each time: only the bytes count.
                let response = try await app.uploadPhoto(bytes, contactID: ada.id, account: account)
                XCTAssertEqual(response.status, .created, "\(database) \(type): \(response.text)")
                let photo = try response.decoded(DataEnvelope<PhotoResource>.self).data
                XCTAssertEqual(photo.mimeType, type)
                XCTAssertEqual([photo.width, photo.height], [width, height])
                XCTAssertEqual(photo.filesize, bytes.count)
                XCTAssertEqual(photo.contactID, ada.id)
                XCTAssertEqual(photo.contact.id, ada.id)
                XCTAssertEqual(photo.originalFilename, "me.png")
                XCTAssertTrue(
                    photo.newFilename.hasPrefix("photos/")
                        && photo.newFilename.hasSuffix(".\(ImageFormat(mimeType: type)!.fileExtension)"))
                XCTAssertEqual(photo.dataURL, "data:\(type);base64," + Data(bytes).base64EncodedString())
                XCTAssertTrue(
                    photo.link.hasPrefix("http://127.0.0.1:8080/store/\(photo.newFilename)?expires="), photo.link)
            }
            let list = try await app.send(.GET, "/api/photos?limit=2", headers: account.bearer)
            XCTAssertEqual(
                JSONKeyOrder.keys(of: list.text, at: ["data", "0"]),
                [
                    "id", "uuid", "object", "original_filename", "new_filename", "filesize", "mime_type", "dataUrl",
                    "link",
                    "account", "contact", "created_at", "updated_at", "contact_id", "width", "height",
                ])
            let page = try list.decoded(PageResource<PhotoResource>.self)
            XCTAssertEqual(page.meta.total, 4)
            XCTAssertEqual(page.data.map(\.mimeType), ["image/png", "image/jpeg"])
        }
    }

    func testJSONUploadsTakeBase64OrADataURL() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let base64 = Data(TestImages.gif).base64EncodedString()
            let plain = try await app.send(
                .POST, "/api/photos", headers: account.bearer,
                json: #"{"contact_id": "\#(ada.id)", "data": "\#(base64)"}"#)
            XCTAssertEqual(plain.status, .created, plain.text)
            XCTAssertEqual(try plain.decoded(DataEnvelope<PhotoResource>.self).data.originalFilename, "photo.gif")
            // The data URL's declared type is a claim; the bytes are a WebP.
            let dataURL = "data:image/png;base64," + Data(TestImages.webp).base64EncodedString()
            let viaContact = try await app.send(
                .POST, "/api/contacts/\(ada.id)/photos", headers: account.bearer,
                json: #"{"data": "\#(dataURL)", "original_filename": "holiday.png"}"#)
            XCTAssertEqual(viaContact.status, .created, viaContact.text)
            let photo = try viaContact.decoded(DataEnvelope<PhotoResource>.self).data
            XCTAssertEqual([photo.mimeType, photo.originalFilename], ["image/webp", "holiday.png"])
            let ofContact = try await app.send(.GET, "/api/contacts/\(ada.id)/photos", headers: account.bearer)
            XCTAssertEqual(try ofContact.decoded(PageResource<PhotoResource>.self).data.count, 2)
        }
    }

    func testWhatIsNotAnImageIsRefusedAndNothingIsStored() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let refused: [(String, [UInt8])] = [
                ("SVG", TestImages.svg), ("HTML named .png", Array("<html><script>alert(1)</script></html>".utf8)),
                ("text named .jpg", Array("just words".utf8)), ("empty", []),
            ]
            for (label, bytes) in refused {
                let response = try await app.uploadPhoto(bytes, contactID: ada.id, account: account)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(label): \(response.text)")
                XCTAssertTrue(
                    response.text.contains("JPEG, PNG, GIF or WebP") || response.text.contains("empty"), response.text)
            }
            let badBase64 = try await app.send(
                .POST, "/api/photos", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "data": "not base64!"}"#)
            XCTAssertEqual(badBase64.status, .unprocessableEntity)
            XCTAssertTrue(badBase64.text.contains("base64"), badBase64.text)
            let svgDataURL = "data:image/svg+xml;base64," + Data(TestImages.svg).base64EncodedString()
            let svg = try await app.send(
                .POST, "/api/photos", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "data": "\#(svgDataURL)"}"#)
            XCTAssertEqual(svg.status, .unprocessableEntity)
            let noContact = try await app.send(
                .POST, "/api/photos", headers: account.bearer,
                json: #"{"data": "\#(Data(TestImages.gif).base64EncodedString())"}"#)
            XCTAssertEqual(noContact.status, .unprocessableEntity)
            XCTAssertTrue(noContact.text.contains("Choose the contact"), noContact.text)
            let nothing = try await app.send(
                .POST, "/api/photos", headers: account.bearer, json: #"{"contact_id": \#(ada.id)}"#)
            XCTAssertEqual(nothing.status, .unprocessableEntity)
            let other = try await app.makeAccount(email: "eve@example.com")
            let theirs = try await app.uploadPhoto(TestImages.png(), contactID: ada.id, account: other)
            XCTAssertEqual(theirs.status, .notFound, "another account's contact is not there")
            let photos = try await app.count(PhotosTable.self)
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual([photos, blobs], [0, 0])
        }
    }

    func testAPhotoOverTheLimitIsRefusedWith413() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            app.locifyConfig.maximumPhotoBytes = 1024 * 1024
            // Declared too large: refused on the header, before the body (never sent here) arrives.
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
            let declared = try RawHTTP.exchange(
                port: port,
                head: [
                    "POST /api/photos HTTP/1.1", "Host: 127.0.0.1", "Authorization: Bearer \(account.token)",
                    "Content-Type: multipart/form-data; boundary=x", "Content-Length: \(50 * 1024 * 1024)",
                ].joined(separator: "\r\n"), body: Array("--x".utf8))
            await app.server.shutdown()
            XCTAssertTrue(declared.hasPrefix("HTTP/1.1 413"), "\(database): \(declared)")
            XCTAssertTrue(declared.contains("larger than 1 MB"), declared)
            // Just over the limit: the body fits the form's allowance, the photo does not.
            let tooBig = try await app.uploadPhoto(
                TestImages.png(filler: 1024 * 1024), contactID: ada.id, account: account)
            XCTAssertEqual(tooBig.status, .payloadTooLarge, tooBig.text)
            let base64 = Data(TestImages.png(filler: 1024 * 1024)).base64EncodedString()
            let json = try await app.send(
                .POST, "/api/photos", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "data": "\#(base64)"}"#)
            XCTAssertEqual(json.status, .payloadTooLarge, json.text)
            let fits = try await app.uploadPhoto(
                TestImages.png(filler: 1000 * 1024), contactID: ada.id, account: account)
            XCTAssertEqual(fits.status, .created, fits.text)
            let photos = try await app.count(PhotosTable.self)
            XCTAssertEqual(photos, 1)
        }
    }

    func testSameBytesAreKeptOnceAndGoWithTheirLastPhoto() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let first = try await app.uploadPhoto(TestImages.png(), contactID: ada.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let second = try await app.uploadPhoto(TestImages.png(), contactID: grace.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            XCTAssertNotEqual(first.id, second.id)
            var blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 1, "one copy of the same bytes")
            // Another account's identical upload is its own copy.
            let other = try await app.makeAccount(email: "eve@example.com")
            let eve = try await app.makeContact(for: other, ContactDraft(firstName: "Eve"))
            _ = try await app.uploadPhoto(TestImages.png(), contactID: eve.id, account: other)
            blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 2)
            let status1 = try await app.send(.DELETE, "/api/photos/\(first.id)", headers: account.bearer).status
            XCTAssertEqual(status1, .ok)
            blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 2, "Grace's photo still shows the bytes")
            let status2 = try await app.send(.GET, "/api/photos/\(first.id)", headers: account.bearer).status
            XCTAssertEqual(status2, .notFound)
            let status3 = try await app.send(.GET, "/api/photos/\(second.id)", headers: other.bearer).status
            XCTAssertEqual(status3, .notFound)
            let status4 = try await app.send(.DELETE, "/api/photos/\(second.id)", headers: other.bearer).status
            XCTAssertEqual(status4, .notFound)
            // Deleting the contact deletes its photos and their bytes.
            let status5 = try await app.send(.DELETE, "/api/contacts/\(grace.id)", headers: account.bearer).status
            XCTAssertEqual(status5, .ok)
            let photos = try await app.count(PhotosTable.self)
            blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual([photos, blobs], [1, 1], "only Eve's photo is left")
            let filtered = try await app.send(.GET, "/api/photos?contact_id=\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try filtered.decoded(PageResource<PhotoResource>.self).data.count, 0)
        }
    }

    func testTheAvatarFollowsTheChoiceAndFallsBackWhenThePhotoGoes() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let before = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data.information.avatar
            XCTAssertEqual(before.source, "default")
            let initialsURL = try XCTUnwrap(before.url)
            XCTAssertTrue(initialsURL.contains("/store/avatars/\(ada.id)?v="), initialsURL)
            let photo = try await app.uploadPhoto(TestImages.png(), contactID: ada.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let chosen = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer,
                json: #"{"source": "photo", "photo_id": \#(photo.id)}"#)
            XCTAssertEqual(chosen.status, .ok, "\(database): \(chosen.text)")
            let avatar = try chosen.decoded(DataEnvelope<ContactResource>.self).data.information.avatar
            XCTAssertEqual(avatar.source, "photo")
            XCTAssertNotEqual(avatar.url, initialsURL, "a new picture, a new URL")
            let served = try await app.send(
                .GET, try XCTUnwrap(avatar.url).replacingOccurrences(of: "http://127.0.0.1:8080", with: ""))
            XCTAssertEqual(served.status, .ok)
            XCTAssertEqual(served.headers.contentType?.description, "image/png")
            XCTAssertEqual(Array(served.body.readableBytesView), TestImages.png())
            // Refusals change nothing.
            for json in [#"{"source": "selfie"}"#, #"{"source": "photo"}"#, "{}"] {
                let refused = try await app.send(
                    .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
            }
            // A photo that is not the contact's is an id in the body that is not found.
            let missingPhoto = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer,
                json: #"{"source": "photo", "photo_id": 999}"#)
            XCTAssertEqual(missingPhoto.status, .notFound, missingPhoto.text)
            let gracePhoto = try await app.uploadPhoto(TestImages.gif, contactID: grace.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let othersPhoto = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer,
                json: #"{"source": "photo", "photo_id": \#(gracePhoto.id)}"#)
            XCTAssertEqual(othersPhoto.status, .notFound)
            let still = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data.information.avatar
            XCTAssertEqual(still, avatar)
            // Deleting the avatar's photo goes back to initials.
            _ = try await app.send(.DELETE, "/api/photos/\(photo.id)", headers: account.bearer)
            let after = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data.information.avatar
            XCTAssertEqual(after.source, "default")
            XCTAssertEqual(after.url, initialsURL)
            for source in ["default", "adorable", "gravatar"] {
                let response = try await app.send(
                    .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer, json: #"{"source": "\#(source)"}"#)
                XCTAssertEqual(response.status, .ok)
                let shown = try response.decoded(DataEnvelope<ContactResource>.self).data.information.avatar
                XCTAssertEqual(shown.source, "default", "\(source) without a Gravatar shows initials")
                XCTAssertNotNil(shown.url)
            }
            let missing = try await app.send(
                .PUT, "/api/contacts/999/avatar", headers: account.bearer, json: #"{"source": "default"}"#)
            XCTAssertEqual(missing.status, .notFound)
        }
    }
}
