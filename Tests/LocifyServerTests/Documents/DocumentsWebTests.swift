import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's documents: uploaded, listed with their size and day, downloaded with the session
/// (and counted, as through the API), deleted; an upload without a file is refused beside the form and
/// stores nothing; another account's document is not found.
final class DocumentsWebTests: XCTestCase {
    func testDocumentsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            let page = try await browser.registerWithContact()
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"aria-labelledby="documents-heading" id="documents""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No documents."))
            XCTAssertTrue(detail.text.contains(#"enctype="multipart/form-data""#))

            let empty = try await browser.upload(page + "/documents", field: "other", fileName: "x.txt", contents: "x")
            XCTAssertEqual(empty.status, .unprocessableEntity, empty.text)
            XCTAssertTrue(empty.text.contains(#"id="document-file-error">Choose a file to upload."#), empty.text)
            let none = try await app.count(DocumentsTable.self)
            XCTAssertEqual(none, 0)

            _ = try await browser.get(page)
            let uploaded = try await browser.upload(
                page + "/documents", field: "document", fileName: "Thèse.txt", contentType: "text/plain",
                contents: "Recherches sur les substances radioactives")
            XCTAssertEqual(uploaded.status, .seeOther, uploaded.text)
            XCTAssertEqual(uploaded.headers.first(name: .location), page + "#documents")
            let api = try await app.apiAccount(email: "grace@example.com")
            let stored = try await app.send(.GET, "/api/documents", headers: api.bearer)
                .decoded(PageResource<DocumentResource>.self).data
            XCTAssertEqual(stored.map(\.originalFilename), ["Thèse.txt"])
            let id = try XCTUnwrap(stored.first?.id)
            detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(
                    #"<a href="/documents/\#(id)/file" download>Thèse.txt</a></strong> · 42 bytes, added 4 May 2024"#),
                detail.text)

            let file = try await browser.get("/documents/\(id)/file")
            XCTAssertEqual(file.status, .ok)
            XCTAssertEqual(file.text, "Recherches sur les substances radioactives")
            XCTAssertEqual(file.headers.contentType?.description, "text/plain")
            XCTAssertEqual(
                file.headers.first(name: .contentDisposition),
                #"attachment; filename="Th_se.txt"; filename*=UTF-8''Th%C3%A8se%2Etxt"#)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("42 bytes, added 4 May 2024, downloaded once"), detail.text)

            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            let foreignFile = try await stranger.get("/documents/\(id)/file")
            XCTAssertEqual(foreignFile.status, .notFound)
            let foreignDelete = try await stranger.post("/documents/\(id)/delete", form: [:])
            XCTAssertEqual(foreignDelete.status, .notFound)
            let foreignUpload = try await stranger.upload(
                page + "/documents", field: "document", fileName: "mine.txt", contents: "mine")
            XCTAssertEqual(foreignUpload.status, .notFound)

            _ = try await browser.get(page)
            let deleted = try await browser.post("/documents/\(id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(DocumentsTable.self)
            XCTAssertEqual(left, 0)
            let anonymous = WebClient(app: app)
            let signedOut = try await anonymous.get("/documents/\(id)/file")
            XCTAssertNotEqual(signedOut.status, .ok)
        }
    }
}
