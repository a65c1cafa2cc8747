import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's gifts: noted, marked given and back, deleted; a gift without a name is refused
/// beside the form and nothing is saved.
final class GiftsWebTests: XCTestCase {
    func testGiftsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"aria-labelledby="gifts-heading" id="gifts""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No gifts yet."))

            let refused = try await browser.post(page + "/gifts", form: ["name": " ", "amount": "9"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("The name of the gift is required."), refused.text)
            let none = try await app.count(GiftsTable.self)
            XCTAssertEqual(none, 0)

            let saved = try await browser.post(
                page + "/gifts",
                form: [
                    "name": "Lab coat", "status": "idea", "amount": "45", "currency": "EUR",
                    "url": "https://example.com/coat",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            XCTAssertEqual(saved.headers.first(name: .location), page + "#gifts")
            detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(
                    #"<strong><a href="https://example.com/coat" rel="noopener noreferrer">Lab coat</a></strong> · Idea · €45.00"#
                ), detail.text)

            let api = try await app.apiAccount(email: "grace@example.com")
            let gifts = try await app.send(.GET, "/api/gifts", headers: api.bearer)
                .decoded(PageResource<GiftResource>.self).data
            let given = try await browser.post("/gifts/\(gifts[0].id)/status", form: ["status": "offered"])
            XCTAssertEqual(given.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("Lab coat</a></strong> · Given"), detail.text)
            let bad = try await browser.post("/gifts/\(gifts[0].id)/status", form: ["status": "lost"])
            XCTAssertEqual(bad.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("The status must be idea, offered or received."), detail.text)

            let deleted = try await browser.post("/gifts/\(gifts[0].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(GiftsTable.self)
            XCTAssertEqual(left, 0)
        }
    }
}
