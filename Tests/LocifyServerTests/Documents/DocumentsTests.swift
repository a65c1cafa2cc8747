import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/documents`: Monica's documents, any kind of file kept with a contact, its bytes beside the
/// photos', downloaded with the token, in the sync feed, gone with the contact.
final class DocumentsTests: XCTestCase {
    private static let boundary = "locify-document-boundary"

    /// A multipart upload of `contents` as `document`, with the contact when given.
    private func upload(
        _ app: Application, _ account: TestAccount, to path: String = "/api/documents", contactID: Int?,
        filename: String = "Notes on the Engine.txt", type: String = "text/plain", contents: String = "Ada's notes"
    ) async throws -> XCTHTTPResponse {
        var body = ""
        if let contactID {
            body += "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"contact_id\"\r\n\r\n\(contactID)\r\n"
        }
        body += """
            --\(Self.boundary)\r
            Content-Disposition: form-data; name="document"; filename="\(filename)"\r
            Content-Type: \(type)\r
            \r
            \(contents)\r
            --\(Self.boundary)--\r

            """
        var headers = account.bearer
        headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(Self.boundary)")
        return try await app.send(.POST, path, headers: headers, body: ByteBuffer(string: body))
    }

    func testADocumentsShapeMatchesMonicasAndItsFileDownloads() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let response = try await upload(app, account, contactID: ada.id)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<DocumentResource>.self).data
            let adaJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            let digest = Photo.digest(of: Array("Ada's notes".utf8))
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"document","#
                    + #""original_filename":"Notes on the Engine.txt","new_filename":"documents/\#(digest).txt","#
                    + #""filesize":11,"type":"txt","mime_type":"text/plain","number_of_downloads":0,"#
                    + #""link":"http://127.0.0.1:8080/api/documents/\#(made.id)/file","#
                    + #""url":"http://127.0.0.1:8080/api/documents/\#(made.id)","account":{"id":\#(account.id)},"#
                    + #""contact":\#(adaJSON),"created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","#
                    + #""contact_id":\#(ada.id)}}"#)

            let file = try await app.send(.GET, "/api/documents/\(made.id)/file", headers: account.bearer)
            XCTAssertEqual(file.status, .ok)
            XCTAssertEqual(file.text, "Ada's notes")
            XCTAssertEqual(file.headers.contentType?.serialize(), "text/plain")
            XCTAssertEqual(
                file.headers.first(name: .contentDisposition),
                #"attachment; filename="Notes on the Engine.txt"; filename*=UTF-8''Notes%20on%20the%20Engine%2Etxt"#)
            let counted = try await app.send(.GET, "/api/documents/\(made.id)", headers: account.bearer)
            XCTAssertEqual(try counted.decoded(DataEnvelope<DocumentResource>.self).data.numberOfDownloads, 1)

            // Listed, and the contact's own; the same bytes as a photo's are kept once.
            let byPath = try await upload(
                app, account, to: "/api/contacts/\(ada.id)/documents", contactID: nil, filename: "../../etc/passwd",
                type: "application/x-evil; charset=utf-8", contents: "Ada's notes")
            XCTAssertEqual(byPath.status, .methodNotAllowed, "Monica's contact list takes no POST")
            let second = try await upload(app, account, contactID: ada.id, filename: "../../etc/passwd", type: "bogus")
            let kept = try second.decoded(DataEnvelope<DocumentResource>.self).data
            XCTAssertEqual(kept.originalFilename, "passwd")
            XCTAssertEqual(kept.mimeType, "application/octet-stream")
            XCTAssertNil(kept.type)
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 1, "one copy of the same bytes")
            let list = try await app.send(.GET, "/api/contacts/\(ada.id)/documents", headers: account.bearer)
            XCTAssertEqual(try list.decoded(PageResource<DocumentResource>.self).data.map(\.id), [made.id, kept.id])

            // Deleting one keeps the bytes the other shows; deleting both lets them go.
            _ = try await app.send(.DELETE, "/api/documents/\(made.id)", headers: account.bearer)
            let stillThere = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(stillThere, 1)
            let deleted = try await app.send(.DELETE, "/api/documents/\(kept.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(kept.id)}"#)
            let none = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(none, 0)
        }
    }

    func testAnUploadIsCheckedAndAnotherAccountsDocumentsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let noContact = try await upload(app, account, contactID: nil)
            XCTAssertEqual(noContact.status, .unprocessableEntity, "\(database): \(noContact.text)")
            XCTAssertEqual(
                try noContact.decoded(ErrorEnvelope.self).error.message,
                .list(["Choose the contact this document belongs to."]))
            let noFile = try await app.send(
                .POST, "/api/documents", headers: account.bearer, json: #"{"contact_id": \#(ada.id)}"#)
            XCTAssertEqual(noFile.status, .unprocessableEntity, noFile.text)
            XCTAssertEqual(
                try noFile.decoded(ErrorEnvelope.self).error.message,
                .list(["Choose the contact this document belongs to.", "Send the file as the form's `document`."]),
                "a JSON body holds no file, and its contact is not read")
            let empty = try await upload(app, account, contactID: ada.id, filename: "empty", contents: "")
            XCTAssertEqual(empty.status, .created, "an empty file is a file: \(empty.text)")
            _ = try await app.send(
                .DELETE, "/api/documents/\(try empty.decoded(DataEnvelope<DocumentResource>.self).data.id)",
                headers: account.bearer)

            let other = try await app.makeAccount(email: "grace@example.com")
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let foreignContact = try await upload(app, account, contactID: grace.id)
            XCTAssertEqual(foreignContact.status, .notFound, foreignContact.text)
            let count = try await app.count(DocumentsTable.self)
            XCTAssertEqual(count, 0)

            let made = try await upload(app, account, contactID: ada.id).decoded(DataEnvelope<DocumentResource>.self)
                .data
            for (method, path) in [
                (HTTPMethod.GET, "/api/documents/\(made.id)"), (.GET, "/api/documents/\(made.id)/file"),
                (.DELETE, "/api/documents/\(made.id)"), (.GET, "/api/contacts/\(ada.id)/documents"),
            ] {
                let foreign = try await app.send(method, path, headers: other.bearer)
                XCTAssertEqual(foreign.status, .notFound, path)
            }
            let update = try await app.send(.PUT, "/api/documents/\(made.id)", headers: account.bearer, json: "{}")
            XCTAssertEqual(update.status, .methodNotAllowed, "no update, as in Monica")
        }
    }

    func testDocumentsTravelInTheSyncFeedAndGoWithTheirContact() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let made = try await upload(app, account, contactID: ada.id).decoded(DataEnvelope<DocumentResource>.self)
                .data
            let pulled = try await app.send(.GET, "/api/sync?types=document", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            guard let change = feed.changes.first, case .document(let record) = change.data else {
                return XCTFail("\(database): not a document: \(pulled.text)")
            }
            XCTAssertEqual(record, made)
            _ = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            let after = try await app.send(
                .GET, "/api/sync?types=document&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(try after.decoded(SyncPullResource.self).deletions.map(\.uuid), [made.uuid])
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 0, "the file goes with its contact")
        }
    }
}
