import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Settings' feedback: sent through the mail command, or handed to the person's mail app.
final class FeedbackWebTests: XCTestCase {
    func testFeedbackIsSentOrHandedToTheMailApp() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            var page = try await browser.get("/settings/feedback")
            XCTAssertTrue(page.text.contains("This server has no address for feedback."))

            app.locifyConfig.outside.feedbackEmail = "team@example.org"
            page = try await browser.get("/settings/feedback")
            XCTAssertTrue(page.text.contains("Write it in my mail app"))
            let empty = try await browser.post("/settings/feedback", form: ["message": "  "])
            XCTAssertEqual(empty.status, .unprocessableEntity)
            XCTAssertTrue(empty.text.contains("Write your message first."))
            let handed = try await browser.post("/settings/feedback", form: ["message": "Love the map & the pins"])
            XCTAssertEqual(handed.status, .seeOther)
            let mailto = try XCTUnwrap(handed.headers.first(name: .location))
            XCTAssertTrue(
                mailto.hasPrefix(
                    "mailto:team@example.org?subject=Locify%20feedback%20from%20Grace%20Hopper&body=Love%20the%20map%20%26%20the%20pins"
                ),
                mailto)
            XCTAssertTrue(mailto.contains("Locify%20\(LocifyConfig.version)"))

            let sent = NIOLockedValueBox<[MailMessage]>([])
            app.dependencies.mailer = FakeMailer { message in sent.withLockedValue { $0.append(message) } }
            app.locifyConfig.outside.mailCommand = "sendmail -t"
            _ = try await browser.get("/settings/feedback")
            let done = try await browser.post("/settings/feedback", form: ["message": "The import preview is great."])
            XCTAssertEqual(done.headers.first(name: .location), "/settings")
            let mail = try XCTUnwrap(sent.withLockedValue { $0 }.first)
            XCTAssertEqual(mail.to, ["team@example.org"])
            XCTAssertEqual(mail.subject, "Locify feedback from Grace Hopper")
            XCTAssertTrue(
                mail.body.hasPrefix("The import preview is great.\n\n--\nFrom Grace Hopper <grace@example.com>"))

            app.dependencies.mailer = FakeMailer { _ in throw GeocoderDown() }
            let failed = try await browser.post("/settings/feedback", form: ["message": "Again"])
            XCTAssertEqual(failed.status, .unprocessableEntity)
            XCTAssertTrue(failed.text.contains("The server could not send it just now."))
            XCTAssertTrue(failed.text.contains(">Again</textarea>"), "the message is kept")
        }
    }
}
