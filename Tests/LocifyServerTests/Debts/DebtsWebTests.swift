import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's debts: recorded, paid back and opened again, deleted; a bad amount is refused
/// beside the form and nothing is saved.
final class DebtsWebTests: XCTestCase {
    func testDebtsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"aria-labelledby="debts-heading" id="debts""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No debts."))

            let refused = try await browser.post(
                page + "/debts", form: ["in_debt": "yes", "amount": "a lot", "reason": "Kept as typed"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("Amount must be a number."), refused.text)
            XCTAssertTrue(refused.text.contains(">Kept as typed</textarea>"), "what was typed stays")
            let none = try await app.count(DebtsTable.self)
            XCTAssertEqual(none, 0)

            let saved = try await browser.post(
                page + "/debts", form: ["in_debt": "yes", "amount": "12,50", "currency": "eur", "reason": "Radium"])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            XCTAssertEqual(saved.headers.first(name: .location), page + "#debts")
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("<strong>You owe Marie €12.50</strong>"), detail.text)

            let api = try await app.apiAccount(email: "grace@example.com")
            let debts = try await app.send(.GET, "/api/debts", headers: api.bearer)
                .decoded(PageResource<DebtResource>.self).data
            XCTAssertEqual(debts.map(\.amount), ["12.50"])
            let settled = try await browser.post("/debts/\(debts[0].id)/settle", form: [:])
            XCTAssertEqual(settled.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("€12.50</strong> · paid back"), detail.text)
            XCTAssertTrue(detail.text.contains("Not paid back yet"))

            let deleted = try await browser.post("/debts/\(debts[0].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(DebtsTable.self)
            XCTAssertEqual(left, 0)

            let stranger = WebClient(app: app)
            _ = try await stranger.register(email: "eve@example.com")
            let foreign = try await stranger.post(page + "/debts", form: ["in_debt": "no", "amount": "1"])
            XCTAssertEqual(foreign.status, .notFound)
        }
    }
}
