import XCTest

@testable import LocifyServer

final class LocifyConfigTests: XCTestCase {
    func testTheFeedbackAddressIsAMailboxAMailCommandCanTake() throws {
        for address in ["team@example.org", "admin@localhost"] {
            let config = try LocifyConfig.resolve(environment: ["LOCIFY_FEEDBACK_EMAIL": address])
            XCTAssertEqual(config.outside.feedbackEmail, address)
        }
        for address in ["team", "Team <team@example.org>", "team@example.org>", "a b@example.org"] {
            XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_FEEDBACK_EMAIL": address]), address) {
                XCTAssertTrue(String(describing: $0).contains("LOCIFY_FEEDBACK_EMAIL"), "\($0)")
            }
        }
    }
}
