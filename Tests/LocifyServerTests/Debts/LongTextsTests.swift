import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The longest texts the descriptions allow, every character beyond the BMP and sent as JSON escapes, fit
/// the routes' bodies: a longer limit would be refused with a 413 the description does not promise.
final class LongTextsTests: XCTestCase {
    func testTheLongestTextsFitTheirRoutes() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            func escaped(_ count: Int) -> String { String(repeating: #"\ud83d\ude00"#, count: count) }
            let bodies: [(String, String)] = [
                (
                    "/api/debts",
                    #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 1, "reason": "\#(escaped(DebtDraft.maximumReasonLength))"}"#
                ),
                (
                    "/api/gifts",
                    #"{"contact_id": \#(ada.id), "name": "Pen", "status": "idea", "comment": "\#(escaped(GiftDraft.maximumCommentLength))", "url": "\#(escaped(GiftDraft.maximumURLLength))"}"#
                ),
                (
                    "/api/lifeevents",
                    #"{"contact_id": \#(ada.id), "life_event_type_id": 1, "happened_at": "2024-05-01", "note": "\#(escaped(LifeEventDraft.maximumNoteLength))"}"#
                ),
                (
                    "/api/activities",
                    #"{"summary": "Tea", "happened_at": "2024-05-01", "contacts": [\#(ada.id)], "description": "\#(escaped(ActivityDraft.maximumDescriptionLength))"}"#
                ),
            ]
            for (path, json) in bodies {
                let response = try await app.send(.POST, path, headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .created, "\(database) \(path): \(response.text.prefix(200))")
            }
            let tooLong = try await app.send(
                .POST, "/api/debts", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 1, "reason": "\#(String(repeating: "a", count: DebtDraft.maximumReasonLength + 1))"}"#
            )
            XCTAssertEqual(tooLong.status, .unprocessableEntity)
        }
    }
}
