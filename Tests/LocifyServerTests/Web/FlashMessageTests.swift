import XCTVapor

@testable import LocifyServer

/// The one-time message after a redirect ("Marie Curie was added.") is used up by the page that shows it,
/// and by nothing a page's scripts fetch meanwhile: the offline plan's JSON, a page fetched in the
/// background. (The browser suite lost the message when the form page's sync asked for the plan while the
/// browser followed the redirect.)
final class FlashMessageTests: XCTestCase {
    func testOnlyThePageTheBrowserOpensUsesTheMessageUp() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            XCTAssertEqual(created.status, .seeOther)
            let page = try XCTUnwrap(created.headers.first(name: .location))

            // The form page's script asks for the offline plan: JSON, with the cookie, and no page to show it.
            let plan = try await browser.get("/offline/plan.json")
            XCTAssertEqual(plan.status, .ok, "\(database)")
            XCTAssertFalse(
                plan.headers[.setCookie].contains { $0.hasPrefix("locify_flash=") }, "JSON leaves the message be")
            // A page a script fetches (Sec-Fetch-Mode: cors) neither shows the message nor uses it up.
            browser.extraHeaders = ["Sec-Fetch-Mode": "cors"]
            let fetched = try await browser.get("/contacts")
            XCTAssertFalse(fetched.text.contains("Marie Curie was added."))
            XCTAssertFalse(fetched.headers[.setCookie].contains { $0.hasPrefix("locify_flash=") })
            // The page the browser opens (a navigation) shows it, once.
            browser.extraHeaders = ["Sec-Fetch-Mode": "navigate"]
            let shown = try await browser.get(page)
            XCTAssertTrue(
                shown.text.contains(#"<p class="flash" role="status">Marie Curie was added.</p>"#), shown.text)
            browser.extraHeaders = [:]
            let again = try await browser.get(page)
            XCTAssertFalse(again.text.contains("Marie Curie was added."), "used up by the page that showed it")
        }
    }
}
