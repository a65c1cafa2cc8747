import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/debts` and `/api/contacts/{id}/debts`: Monica's debt with exact amounts in a currency, the
/// contact's `number_of_debts`, validation, ownership and the sync feed.
final class DebtsAPITests: XCTestCase {
    private func debt(
        _ app: Application, _ account: TestAccount, _ json: String, path: String = "/api/debts",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> DebtResource {
        let response = try await app.send(.POST, path, headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<DebtResource>.self, file: file, line: line).data
    }

    func testADebtsShapeMatchesMonicasAndCountsOnItsContact() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let response = try await app.send(
                .POST, "/api/debts", headers: account.bearer,
                json: #"""
                    {"contact_id": \#(ada.id), "in_debt": "yes", "status": "inprogress", "amount": "12.5",
                     "currency": "eur", "reason": "  Concert tickets "}
                    """#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<DebtResource>.self).data
            let contact = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"debt","in_debt":"yes","#
                    + #""status":"inprogress","amount":"12.50","value":"12.50","amount_with_currency":"€12.50","#
                    + #""reason":"Concert tickets","account":{"id":\#(account.id)},"contact":\#(contact),"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","currency":"EUR","#
                    + #""contact_id":\#(ada.id)}}"#)

            // Through the contact's own route, in yen (no minor units) and in a currency without a symbol.
            clock.advance(by: 60)
            let yen = try await debt(
                app, account, #"{"in_debt": "no", "amount": 1500.4, "currency": "JPY"}"#,
                path: "/api/contacts/\(ada.id)/debts")
            XCTAssertEqual(yen.amountWithCurrency, "¥1500")
            XCTAssertEqual(yen.status, "inprogress")
            let francs = try await debt(
                app, account, #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 0.1, "currency": "CHF"}"#)
            XCTAssertEqual(francs.amountWithCurrency, "0.10 CHF")
            let dollars = try await debt(app, account, #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 3}"#)
            XCTAssertEqual(dollars.amountWithCurrency, "$3.00", "USD when none is named")

            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertTrue(shown.text.contains(#""number_of_debts":4"#), shown.text)
            let list = try await app.send(
                .GET, "/api/contacts/\(ada.id)/debts?sort=-created_at", headers: account.bearer)
            XCTAssertEqual(
                try list.decoded(PageResource<DebtResource>.self).data.map(\.id),
                [dollars.id, francs.id, yen.id, made.id])

            // An update keeps what it leaves out.
            let settled = try await app.send(
                .PUT, "/api/debts/\(made.id)", headers: account.bearer, json: #"{"status": "completed"}"#)
            XCTAssertEqual(settled.status, .ok, settled.text)
            let updated = try settled.decoded(DataEnvelope<DebtResource>.self).data
            XCTAssertEqual(updated.status, "completed")
            XCTAssertEqual(updated.amountWithCurrency, "€12.50")
            XCTAssertEqual(updated.reason, "Concert tickets")

            let deleted = try await app.send(.DELETE, "/api/debts/\(made.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(made.id)}"#)
            let gone = try await app.send(.GET, "/api/debts/\(made.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
        }
    }

    func testBadDebtsAreRefusedWholeAndAnotherAccountsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let cases: [(String, [String])] = [
                (
                    "{}",
                    [
                        "Choose the contact this debt is about.", "Say who owes whom (in_debt: yes or no).",
                        "The amount is required.",
                    ]
                ),
                (
                    #"{"contact_id": \#(ada.id), "in_debt": "maybe", "amount": "lots", "currency": "euro"}"#,
                    [
                        "Amount must be a number.", "Who owes must be yes or no.",
                        "The currency must be a three-letter code such as EUR.",
                    ]
                ),
                (
                    // Far beyond what minor units hold: refused, not overflowed.
                    #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 7.2e307}"#,
                    ["The amount must be between 0 and 999,999,999,999."]
                ),
                (
                    #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": -5, "status": "paid"}"#,
                    [
                        "The status must be inprogress or completed.",
                        "The amount must be between 0 and 999,999,999,999.",
                    ]
                ),
            ]
            for (json, messages) in cases {
                let response = try await app.send(.POST, "/api/debts", headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(json): \(response.text)")
                XCTAssertEqual(response.errorCode, 32, json)
                XCTAssertEqual(try response.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            let made = try await debt(app, account, #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 5}"#)
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/debts/\(made.id)", nil),
                (.PUT, "/api/debts/\(made.id)", #"{"amount": 1}"#),
                (.DELETE, "/api/debts/\(made.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/debts", nil),
                (.POST, "/api/debts", #"{"contact_id": \#(ada.id), "in_debt": "no", "amount": 1}"#),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path): \(response.text)")
            }
            let count = try await app.count(DebtsTable.self)
            XCTAssertEqual(count, 1, "only the good debt")
            let kept = try await app.send(.GET, "/api/debts/\(made.id)", headers: account.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<DebtResource>.self).data.amount, "5.00")
        }
    }

    func testDebtsTravelInTheSyncFeedAndGoWithTheirContact() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let uuid = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [{"id": 1, "type": "debt", "op": "create", "uuid": "\#(uuid)",
                     "fields": {"contact_id": \#(ada.id), "in_debt": "no", "amount": 20, "currency": "GBP"}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            XCTAssertEqual(try pushed.decoded(SyncPushAnswerResource.self).results.map(\.status), [.applied])
            let pulled = try await app.send(.GET, "/api/sync?types=debt", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            guard let change = feed.changes.first, case .debt(let record) = change.data else {
                return XCTFail("not a debt: \(pulled.text)")
            }
            XCTAssertEqual(record.amountWithCurrency, "£20.00")
            let deleted = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let after = try await app.send(.GET, "/api/sync?types=debt&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(try after.decoded(SyncPullResource.self).deletions.map(\.uuid), [uuid])
        }
    }
}
