import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's calls: logged with a day and perhaps a time, newest first, deleted; a bad day is
/// refused beside the form and nothing is saved.
final class CallsWebTests: XCTestCase {
    func testCallsOnTheContactPage() async throws {
        try await forEachDatabase { app, clock, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"aria-labelledby="calls-heading" id="calls""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No calls yet."))
            XCTAssertTrue(detail.text.contains(#"value="2024-05-04""#), "the day defaults to today")

            let refused = try await browser.post(
                page + "/calls", form: ["called_on": "2024-02-30", "content": "Kept as typed"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("The date of the call is not a valid date."), refused.text)
            XCTAssertTrue(refused.text.contains(">Kept as typed</textarea>"), "what was typed stays")
            let none = try await app.count(CallsTable.self)
            XCTAssertEqual(none, 0)

            let logged = try await browser.post(
                page + "/calls",
                form: [
                    "called_on": "2024-05-01", "called_at_time": "18:30", "content": "Radium prices",
                    "contact_called": "1",
                ])
            XCTAssertEqual(logged.status, .seeOther, logged.text)
            XCTAssertEqual(logged.headers.first(name: .location), page + "#calls")
            clock.advance(by: 60)
            try await browser.post(page + "/calls", form: ["called_on": "2024-05-03"])
            detail = try await browser.get(page)
            let newer = try XCTUnwrap(detail.text.range(of: "<strong>3 May 2024</strong> · You called"))
            let older = try XCTUnwrap(detail.text.range(of: "<strong>1 May 2024, 18:30</strong> · Marie called"))
            XCTAssertLessThan(newer.lowerBound, older.lowerBound, "newest first")
            XCTAssertTrue(detail.text.contains("Radium prices"))

            // The API shows the same calls, and the contact's last call.
            let api = try await app.apiAccount(email: "grace@example.com")
            let calls = try await app.send(.GET, "/api/calls", headers: api.bearer)
                .decoded(PageResource<CallResource>.self).data
            XCTAssertEqual(calls.map(\.calledAt), ["2024-05-03T00:00:00Z", "2024-05-01T18:30:00Z"])
            XCTAssertEqual(calls.map(\.contactCalled), [false, true])

            let deleted = try await browser.post("/calls/\(calls[0].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            detail = try await browser.get(page)
            XCTAssertFalse(detail.text.contains("3 May 2024</strong>"))
            XCTAssertTrue(detail.text.contains("The call was deleted."))
            let left = try await app.count(CallsTable.self)
            XCTAssertEqual(left, 1)

            // Another account's call is not found, and stays.
            let stranger = WebClient(app: app)
            _ = try await stranger.register(email: "eve@example.com")
            let foreign = try await stranger.post("/calls/\(calls[1].id)/delete", form: [:])
            XCTAssertEqual(foreign.status, .notFound)
            let kept = try await app.count(CallsTable.self)
            XCTAssertEqual(kept, 1)
        }
    }
}
