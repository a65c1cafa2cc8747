import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `PUT /api/contacts/{id}/food` and `/introduction`: Monica's `information.food_preferences` and
/// `how_you_met` become real, with the first meeting's yearly reminder and the contact met through.
final class ContactIntroductionTests: XCTestCase {
    private func contact(_ response: XCTHTTPResponse) throws -> ContactResource {
        try response.decoded(DataEnvelope<ContactResource>.self).data
    }

    func testFoodPreferencesAreSetClearedAndCheckedAsMonicaDoes() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            clock.advance(by: 60)
            let set = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/food", headers: account.bearer,
                json: #"{"food_preferences": "  Vegetarian; no coriander  "}"#)
            XCTAssertEqual(set.status, .ok, "\(database): \(set.text)")
            XCTAssertTrue(
                set.text.contains(#""food_preferences":"Vegetarian; no coriander","how_you_met""#), set.text)
            XCTAssertEqual(try contact(set).updatedAt, "2024-05-04T10:07:05Z")
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try contact(shown).information.foodPreferences, "Vegetarian; no coriander")

            let refused = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/food", headers: account.bearer, json: #"{"food_preferences": 12}"#)
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message, .list(["Food preferences must be text."]))
            let other = try await app.makeAccount(email: "grace@example.com")
            let foreign = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/food", headers: other.bearer, json: #"{"food_preferences": "Mine"}"#)
            XCTAssertEqual(foreign.status, .notFound, foreign.text)

            // Left out or blank clears it, as Monica's nullable rule does.
            let cleared = try await app.send(.PUT, "/api/contacts/\(ada.id)/food", headers: account.bearer, json: "{}")
            XCTAssertNil(try contact(cleared).information.foodPreferences, cleared.text)
            let reread = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertNil(try contact(reread).information.foodPreferences, "cleared where it is stored")
        }
    }

    func testAnIntroductionShowsHowYouMetWithItsReminderAndWhoIntroducedYou() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let mary = try await app.makeContact(for: account, ContactDraft(firstName: "Mary", lastName: "Somerville"))
            let response = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"""
                    {"met_through_contact_id": \#(mary.id), "general_information": "At a party of Babbage's",
                     "where": "London", "is_date_known": true, "day": 5, "month": 6, "year": 1833,
                     "add_reminder": true}
                    """#)
            XCTAssertEqual(response.status, .ok, "\(database): \(response.text)")
            let made = try contact(response)
            let maryJSON = String(
                decoding: try OrderedJSONEncoder().encodedBytes(
                    try XCTUnwrap(made.information.howYouMet.firstMetThroughContact)),
                as: UTF8.self)
            XCTAssertTrue(maryJSON.contains(#""first_name":"Mary","last_name":"Somerville""#), maryJSON)
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try contact(shown).information.howYouMet, made.information.howYouMet, "as shown alone")
            let listed = try await app.send(.GET, "/api/contacts", headers: account.bearer)
                .decoded(PageResource<ContactResource>.self).data.first { $0.id == ada.id }
            XCTAssertEqual(listed?.information.howYouMet, made.information.howYouMet, "as listed")
            XCTAssertTrue(
                response.text.contains(
                    #""food_preferences":null,"how_you_met":{"general_information":"At a party of Babbage's","#
                        + #""first_met_date":{"is_age_based":false,"is_year_unknown":false,"date":"1833-06-05T00:00:00Z"},"#
                        + #""first_met_through_contact":\#(maryJSON)}}"#), response.text)
            var reminders = try await app.send(.GET, "/api/contacts/\(ada.id)/reminders", headers: account.bearer)
                .decoded(PageResource<ReminderResource>.self).data
            XCTAssertEqual(reminders.map(\.title), ["Anniversary of the day you met Ada"])
            XCTAssertEqual(reminders.first?.initialDate, "1833-06-05T00:00:00Z")
            XCTAssertEqual(reminders.first?.frequencyType, "year")

            // Replaced whole: a day without its year moves the reminder; no date forgets the day and the
            // reminder, and what is left out is forgotten.
            let moved = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"is_date_known": true, "day": 29, "month": 2}"#)
            XCTAssertEqual(moved.status, .ok, moved.text)
            let movedMet = try contact(moved).information.howYouMet
            XCTAssertNil(movedMet.generalInformation)
            XCTAssertNil(movedMet.firstMetThroughContact)
            XCTAssertEqual(movedMet.firstMetDate.isYearUnknown, true)
            reminders = try await app.send(.GET, "/api/contacts/\(ada.id)/reminders", headers: account.bearer)
                .decoded(PageResource<ReminderResource>.self).data
            XCTAssertEqual(reminders.map(\.initialDate), ["2000-02-29T00:00:00Z"])
            let forgotten = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"is_date_known": false, "general_information": "Later"}"#)
            XCTAssertEqual(try contact(forgotten).information.howYouMet.firstMetDate, .absent)
            let remindersLeft = try await app.count(RemindersTable.self)
            XCTAssertEqual(remindersLeft, 0)

            // An age-based day is a year only, with no reminder.
            let aged = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"is_date_known": true, "is_age_based": true, "age": 20, "add_reminder": true}"#)
            XCTAssertEqual(try contact(aged).information.howYouMet.firstMetDate.isAgeBased, true, aged.text)
            let stillNone = try await app.count(RemindersTable.self)
            XCTAssertEqual(stillNone, 0)
        }
    }

    func testAnIntroductionIsCheckedWholeAndForgetsAContactDeletedSince() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let mary = try await app.makeContact(for: account, ContactDraft(firstName: "Mary"))
            let refused = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"is_date_known": true, "day": 31, "month": 13, "where": 7}"#)
            XCTAssertEqual(refused.status, .unprocessableEntity, "\(database): \(refused.text)")
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list(["Where must be text.", "First meeting month must be from 1 to 12."]))
            let itself = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"met_through_contact_id": \#(ada.id)}"#)
            XCTAssertEqual(itself.status, .conflict, itself.text)
            let other = try await app.makeAccount(email: "grace@example.com")
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let foreign = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"met_through_contact_id": \#(grace.id)}"#)
            XCTAssertEqual(foreign.status, .notFound, foreign.text)
            let unchanged = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertNil(try contact(unchanged).information.howYouMet.firstMetThroughContact)

            // Mary introduced Ada, then Mary is deleted: Ada forgets whom through, and her copies hear it.
            _ = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/introduction", headers: account.bearer,
                json: #"{"met_through_contact_id": \#(mary.id), "general_information": "Through Mary"}"#)
            let before = try await app.send(.GET, "/api/sync?types=contact", headers: account.bearer)
                .decoded(SyncPullResource.self)
            _ = try await app.send(.DELETE, "/api/contacts/\(mary.id)", headers: account.bearer)
            let after = try await app.send(
                .GET, "/api/sync?types=contact&cursor=\(before.cursor)", headers: account.bearer)
            let feed = try after.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.id), [ada.id], after.text)
            guard case .contact(let record) = feed.changes.first?.data else { return XCTFail(after.text) }
            XCTAssertNil(record.information.howYouMet.firstMetThroughContact)
            XCTAssertEqual(record.information.howYouMet.generalInformation, "Through Mary")
        }
    }

    func testHowYouMetAndFoodOnTheWeb() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let mary = try await browser.post("/contacts", form: ["first_name": "Mary", "last_name": "Somerville"])
            let maryID = try XCTUnwrap(mary.headers.first(name: .location)?.split(separator: "/").last)
            let created = try await browser.post("/contacts", form: ["first_name": "Ada", "last_name": "Lovelace"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"<a class="button" href="\#(page)/introduction">How you met</a>"#))
            let form = try await browser.get(page + "/introduction")
            XCTAssertEqual(form.status, .ok, "\(database): \(form.text)")
            XCTAssertTrue(form.text.contains(#"<option value="\#(maryID)">Mary Somerville</option>"#), form.text)
            XCTAssertFalse(form.text.contains(">Ada Lovelace</option>"), "not met through herself")

            let refused = try await browser.post(
                page + "/introduction",
                form: ["general_information": "Kept as typed", "day": "31", "month": "2", "food_preferences": "Tea"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("That day does not exist in that month."), refused.text)
            XCTAssertTrue(refused.text.contains(">Kept as typed</textarea>"), "what was typed stays")

            let saved = try await browser.post(
                page + "/introduction",
                form: [
                    "general_information": "At a party of Babbage's", "where": "London", "day": "5", "month": "6",
                    "year": "1833", "met_through_contact_id": String(maryID), "add_reminder": "on",
                    "food_preferences": "Tea, no sugar",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("<dt>How you met</dt><dd>At a party of Babbage&#39;s</dd>"), detail.text)
            XCTAssertTrue(
                detail.text.contains("<dt>Met</dt><dd>5 June 1833, London, through Mary Somerville</dd>"),
                String(detail.text.split(separator: "<dt>Met").last?.prefix(200) ?? ""))
            XCTAssertTrue(detail.text.contains("<dt>Food</dt><dd>Tea, no sugar</dd>"))
            XCTAssertTrue(detail.text.contains("Anniversary of the day you met Ada"), "its reminder is listed")

            // The form comes back as saved, the reminder ticked; clearing it all forgets it all.
            let again = try await browser.get(page + "/introduction")
            XCTAssertTrue(again.text.contains(#"value="London""#), again.text)
            XCTAssertTrue(again.text.contains(#"<option value="\#(maryID)" selected>Mary Somerville</option>"#))
            XCTAssertTrue(again.text.contains(#"name="add_reminder" checked"#) || again.text.contains("checked"))
            let cleared = try await browser.post(page + "/introduction", form: [:])
            XCTAssertEqual(cleared.status, .seeOther, cleared.text)
            detail = try await browser.get(page)
            XCTAssertFalse(detail.text.contains("<dt>Met</dt>"), detail.text)
            XCTAssertFalse(detail.text.contains("<dt>Food</dt>"))
            let reminders = try await app.count(RemindersTable.self)
            XCTAssertEqual(reminders, 0)
        }
    }
}
