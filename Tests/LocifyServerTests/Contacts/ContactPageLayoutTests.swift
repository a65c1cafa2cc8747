import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page puts how to reach the person, their addresses and reminders first; everything else
/// sits folded under one summary, a tap away, and opens when one of its forms was refused.
final class ContactPageLayoutTests: XCTestCase {
    func testTheRestOfTheContactPageIsOneTapAway() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            _ = try await browser.post(page + "/calls", form: ["called_on": "2024-05-01"])
            let detail = try await browser.get(page)
            let text = detail.text
            let more = try XCTUnwrap(text.range(of: #"<details class="more-sections" id="more">"#), "\(database)")
            for first in [#"id="fields""#, #"id="addresses-heading""#, #"id="reminders-heading""#] {
                let at = try XCTUnwrap(text.range(of: first), first)
                XCTAssertLessThan(at.lowerBound, more.lowerBound, "\(first) comes before the folded sections")
            }
            for folded in [
                #"id="tasks""#, #"id="relationships""#, #"id="life-events""#, #"id="calls""#, #"id="conversations""#,
                #"id="gifts""#, #"id="debts""#, #"id="pets""#, #"id="notes""#, #"id="tags""#,
            ] {
                let at = try XCTUnwrap(text.range(of: folded), folded)
                XCTAssertGreaterThan(at.lowerBound, more.lowerBound, "\(folded) is folded")
            }
            XCTAssertTrue(
                text.contains("<summary>Tasks, relationships, calls, notes, tags and more (1 call)</summary>"), text)

            // A refused form of a folded section shows it open, with its problem.
            let refused = try await browser.post(page + "/debts", form: ["in_debt": "no", "amount": "lots"])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains(#"<details class="more-sections" id="more" open>"#))
            XCTAssertTrue(refused.text.contains("Amount must be a number."))
        }
    }
}
