import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/activities`, their types and categories: Monica's shapes and defaults, who was there, the
/// contact's `last_activity_together` and `number_of_activities`, yearly statistics, validation,
/// ownership, the sync feed, and the journal page.
final class ActivitiesTests: XCTestCase {
    func testEachAccountStartsWithMonicasTypesAndKeepsItsOwn() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let categories = try await app.send(.GET, "/api/activitytypecategories", headers: account.bearer)
            XCTAssertEqual(categories.status, .ok, "\(database): \(categories.text)")
            let categoryPage = try categories.decoded(PageResource<ActivityTypeCategoryResource>.self)
            XCTAssertEqual(
                categoryPage.data.map(\.name), ["Simple activities", "Sport", "Food", "Cultural activities"])
            let types = try await app.send(.GET, "/api/activitytypes?limit=20", headers: account.bearer)
            let typePage = try types.decoded(PageResource<ActivityTypeResource>.self)
            XCTAssertEqual(typePage.meta.total, 13)
            XCTAssertEqual(typePage.data.first?.name, "just hung out")
            XCTAssertEqual(typePage.data.last?.name, "went to the museum")
            XCTAssertEqual(typePage.data.last?.activityTypeCategory.name, "Cultural activities")
            let first = try XCTUnwrap(typePage.data.first)
            let shown = try await app.send(.GET, "/api/activitytypes/\(first.id)", headers: account.bearer)
            let category = first.activityTypeCategory
            XCTAssertEqual(
                shown.text,
                #"{"data":{"id":\#(first.id),"uuid":"\#(first.uuid)","object":"activityType","name":"just hung out","#
                    + #""location_type":null,"activity_type_category":{"id":\#(category.id),"uuid":"\#(category.uuid)","#
                    + #""object":"activityTypeCategory","name":"Simple activities","account":{"id":\#(account.id)},"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"},"#
                    + #""account":{"id":\#(account.id)},"created_at":"2024-05-04T10:06:05Z","#
                    + #""updated_at":"2024-05-04T10:06:05Z"}}"#)

            // Another account has its own, and not this one's.
            let other = try await app.makeAccount(email: "grace@example.com")
            let theirs = try await app.send(.GET, "/api/activitytypes", headers: other.bearer)
            XCTAssertEqual(try theirs.decoded(PageResource<ActivityTypeResource>.self).meta.total, 13)
            let foreign = try await app.send(.GET, "/api/activitytypes/\(first.id)", headers: other.bearer)
            XCTAssertEqual(foreign.status, .notFound)

            // Made with 200, as Monica answers; renamed, deleted (a category takes its types).
            let madeCategory = try await app.send(
                .POST, "/api/activitytypecategories", headers: account.bearer, json: #"{"name": "Outdoors"}"#)
            XCTAssertEqual(madeCategory.status, .ok, madeCategory.text)
            let outdoors = try madeCategory.decoded(DataEnvelope<ActivityTypeCategoryResource>.self).data
            let madeType = try await app.send(
                .POST, "/api/activitytypes", headers: account.bearer,
                json:
                    #"{"name": "went hiking", "activity_type_category_id": \#(outdoors.id), "location_type": "outside"}"#
            )
            XCTAssertEqual(madeType.status, .ok, madeType.text)
            let hiking = try madeType.decoded(DataEnvelope<ActivityTypeResource>.self).data
            XCTAssertEqual(hiking.locationType, "outside")
            let renamed = try await app.send(
                .PUT, "/api/activitytypes/\(hiking.id)", headers: account.bearer, json: #"{"name": "hiked"}"#)
            XCTAssertEqual(try renamed.decoded(DataEnvelope<ActivityTypeResource>.self).data.name, "hiked")
            let refused = try await app.send(
                .POST, "/api/activitytypes", headers: account.bearer, json: #"{"name": " "}"#)
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list(["Choose the type's category.", "The name is required."]))
            let deleted = try await app.send(
                .DELETE, "/api/activitytypecategories/\(outdoors.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let gone = try await app.send(.GET, "/api/activitytypes/\(hiking.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)

            // Deleting them all does not bring Monica's back.
            for existing in categoryPage.data {
                _ = try await app.send(
                    .DELETE, "/api/activitytypecategories/\(existing.id)", headers: account.bearer)
            }
            let none = try await app.send(.GET, "/api/activitytypes", headers: account.bearer)
            XCTAssertEqual(try none.decoded(PageResource<ActivityTypeResource>.self).meta.total, 0)

        }
    }

    func testAnActivitysShapeAttendeesAndWhatItsContactsShow() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let types = try await app.send(.GET, "/api/activitytypes", headers: account.bearer)
                .decoded(PageResource<ActivityTypeResource>.self).data
            let bar = try XCTUnwrap(types.first { $0.name == "went to a bar" })
            let response = try await app.send(
                .POST, "/api/activities", headers: account.bearer,
                json: #"""
                    {"summary": " Drinks ", "description": "At the Crown", "happened_at": "2024-04-20",
                     "activity_type_id": \#(bar.id), "contacts": [\#(ada.id), \#(byron.id), \#(ada.id)], "emotions": [24]}
                    """#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<ActivityResource>.self).data
            let typeJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(bar), as: UTF8.self)
            let people = try made.attendees.contacts.map {
                String(decoding: try OrderedJSONEncoder().encodedBytes($0), as: UTF8.self)
            }
            XCTAssertEqual(made.attendees.contacts.map(\.id), [ada.id, byron.id])
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"activity","summary":"Drinks","#
                    + #""description":"At the Crown","happened_at":"2024-04-20","activity_type":\#(typeJSON),"#
                    + #""attendees":{"total":2,"contacts":[\#(people.joined(separator: ","))]},"#
                    + #""emotions":[{"id":24,"object":"emotion","name":"joy"}],"#
                    + #""url":"http://127.0.0.1:8080/api/activities/\#(made.id)","account":{"id":\#(account.id)},"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"}}"#)

            // The contact's count and last activity together (Monica's microseconds).
            clock.advance(by: 60)
            let later = try await app.send(
                .POST, "/api/activities", headers: account.bearer,
                json: #"{"summary": "Lunch", "happened_at": "2025-01-03", "contacts": [\#(ada.id)]}"#)
            XCTAssertEqual(later.status, .created, later.text)
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertTrue(shown.text.contains(#""last_activity_together":"2025-01-03T00:00:00.000000Z""#), shown.text)
            XCTAssertTrue(shown.text.contains(#""number_of_activities":2"#), shown.text)
            let byrons = try await app.send(.GET, "/api/contacts/\(byron.id)", headers: account.bearer)
            XCTAssertTrue(byrons.text.contains(#""last_activity_together":"2024-04-20T00:00:00.000000Z""#))

            // Lists: newest day first, the account's activities by year in `meta.statistics`.
            let list = try await app.send(.GET, "/api/contacts/\(ada.id)/activities", headers: account.bearer)
            XCTAssertEqual(
                try list.decoded(PageResource<ActivityResource>.self).data.map(\.summary), ["Lunch", "Drinks"])
            XCTAssertTrue(list.text.hasSuffix(#""statistics":{"2025":1,"2024":1}}}"#), list.text)
            let hisList = try await app.send(.GET, "/api/activities?contact_id=\(byron.id)", headers: account.bearer)
            XCTAssertEqual(try hisList.decoded(PageResource<ActivityResource>.self).data.map(\.id), [made.id])

            // An update keeps what it leaves out; `contacts` replaces who was there.
            let changed = try await app.send(
                .PUT, "/api/activities/\(made.id)", headers: account.bearer, json: #"{"contacts": [\#(byron.id)]}"#)
            XCTAssertEqual(changed.status, .ok, changed.text)
            let updated = try changed.decoded(DataEnvelope<ActivityResource>.self).data
            XCTAssertEqual(updated.attendees.contacts.map(\.id), [byron.id])
            XCTAssertEqual(updated.summary, "Drinks")
            let adaAfter = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertTrue(adaAfter.text.contains(#""number_of_activities":1"#), adaAfter.text)

            // A deleted type reads as none.
            _ = try await app.send(.DELETE, "/api/activitytypes/\(bar.id)", headers: account.bearer)
            let typeless = try await app.send(.GET, "/api/activities/\(made.id)", headers: account.bearer)
            XCTAssertTrue(typeless.text.contains(#""activity_type":null"#), typeless.text)
        }
    }

    func testBadActivitiesAreRefusedAndAnotherAccountsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let cases: [(String, [String])] = [
                (
                    "{}",
                    [
                        "The summary is required.", "The date of the activity is required.",
                        "Choose who was there (contacts).",
                    ]
                ),
                (
                    #"{"summary": "Tea", "happened_at": "2024-02-30", "contacts": "Ada", "emotions": [200]}"#,
                    [
                        // A value of the wrong type is reported once, not again as missing.
                        "Who was there must be a list of ids.", "The date of the activity is not a valid date.",
                        "The selected emotion 200 is invalid.",
                    ]
                ),
            ]
            for (json, messages) in cases {
                let refused = try await app.send(.POST, "/api/activities", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(json): \(refused.text)")
                XCTAssertEqual(try refused.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            let withStranger = try await app.send(
                .POST, "/api/activities", headers: account.bearer,
                json: #"{"summary": "Tea", "happened_at": "2024-05-01", "contacts": [\#(ada.id), \#(grace.id)]}"#)
            XCTAssertEqual(withStranger.status, .notFound, withStranger.text)
            let made = try await app.send(
                .POST, "/api/activities", headers: account.bearer,
                json: #"{"summary": "Tea", "happened_at": "2024-05-01", "contacts": [\#(ada.id)]}"#)
            let activity = try made.decoded(DataEnvelope<ActivityResource>.self).data
            for (method, path) in [
                (HTTPMethod.GET, "/api/activities/\(activity.id)"), (.DELETE, "/api/activities/\(activity.id)"),
                (.GET, "/api/contacts/\(ada.id)/activities"),
            ] {
                let foreign = try await app.send(method, path, headers: other.bearer)
                XCTAssertEqual(foreign.status, .notFound, path)
            }
            let count = try await app.count(ActivitiesTable.self)
            XCTAssertEqual(count, 1)

            // The sync feed carries it with who was there; a change of who was there is a change of it.
            let pulled = try await app.send(.GET, "/api/sync?types=activity", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["activity"], pulled.text)
            let bob = try await app.makeContact(for: account, ContactDraft(firstName: "Bob"))
            _ = try await app.send(
                .PUT, "/api/activities/\(activity.id)", headers: account.bearer,
                json: #"{"contacts": [\#(ada.id), \#(bob.id)]}"#)
            let next = try await app.send(
                .GET, "/api/sync?types=activity&cursor=\(feed.cursor)", headers: account.bearer)
            guard case .activity(let record) = try next.decoded(SyncPullResource.self).changes.first?.data else {
                return XCTFail("no change: \(next.text)")
            }
            XCTAssertEqual(record.attendees.total, 2)
        }
    }

    func testActivitiesOnTheJournalPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            let marieID = try XCTUnwrap(page.split(separator: "/").last.map(String.init))
            var journal = try await browser.get("/journal")
            XCTAssertTrue(journal.text.contains("No activities yet"), "\(database)")
            XCTAssertTrue(journal.text.contains(#"href="/activities/new""#))
            let form = try await browser.get("/activities/new")
            XCTAssertTrue(form.text.contains(">Marie Curie</option>"), form.text)
            XCTAssertTrue(form.text.contains("went to a concert (Cultural activities)"))

            let refused = try await browser.post(
                "/activities", form: ["summary": "Kept as typed", "happened_at": "2024-05-01"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("Choose who was there (contacts)."), refused.text)
            XCTAssertTrue(refused.text.contains(#"value="Kept as typed""#))
            let none = try await app.count(ActivitiesTable.self)
            XCTAssertEqual(none, 0)

            let saved = try await browser.post(
                "/activities", form: ["summary": "Lab work", "happened_at": "1898-07-18", "contacts": marieID])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            let api = try await app.apiAccount(email: "grace@example.com")
            let first = try await app.send(.GET, "/api/activities", headers: api.bearer)
                .decoded(PageResource<ActivityResource>.self).data[0]
            XCTAssertEqual(saved.headers.first(name: .location), "/journal#activity-\(first.id)")
            journal = try await browser.get("/journal")
            XCTAssertTrue(
                journal.text.contains(
                    #"<p class="note-meta">18 July 1898 · with <a href="\#(page)">Marie Curie</a></p>"#),
                journal.text)
            XCTAssertTrue(journal.text.contains(#"href="/activities/\#(first.id)/edit""#))

            // Several people: the select sends one field per choice.
            let pierre = try await browser.post("/contacts", form: ["first_name": "Pierre", "last_name": "Curie"])
            let pierrePage = try XCTUnwrap(pierre.headers.first(name: .location))
            let pierreID = try XCTUnwrap(pierrePage.split(separator: "/").last.map(String.init))
            _ = try await browser.get("/activities/new")
            let together = try await browser.post(
                "/activities",
                fields: [
                    ("summary", "Radium"), ("happened_at", "1898-12-26"), ("contacts", marieID), ("contacts", pierreID),
                ])
            XCTAssertEqual(together.status, .seeOther, together.text)
            journal = try await browser.get("/journal")
            XCTAssertTrue(
                journal.text.contains(
                    #"26 December 1898 · with <a href="\#(page)">Marie Curie</a>, <a href="\#(pierrePage)">Pierre Curie</a>"#
                ), journal.text)

            // Changing one: its page is filled with what is stored; the form's list replaces who was there.
            let edit = try await browser.get("/activities/\(first.id)/edit")
            XCTAssertTrue(
                edit.text.contains(#"<select id="contacts" name="contacts" multiple size="8" required"#), edit.text)
            XCTAssertTrue(edit.text.contains(#"<option value="\#(marieID)" selected>Marie Curie</option>"#), edit.text)
            XCTAssertTrue(edit.text.contains(#"value="Lab work""#))
            let changed = try await browser.post(
                "/activities/\(first.id)",
                fields: [("summary", "Lab work, again"), ("happened_at", "1898-07-19"), ("contacts", pierreID)])
            XCTAssertEqual(changed.status, .seeOther, changed.text)
            let stored = try await app.send(.GET, "/api/activities/\(first.id)", headers: api.bearer)
                .decoded(DataEnvelope<ActivityResource>.self).data
            XCTAssertEqual(stored.summary, "Lab work, again")
            XCTAssertEqual(stored.attendees.contacts.map(\.id), [Int(pierreID)])
            let emptied = try await browser.post(
                "/activities/\(first.id)", fields: [("summary", ""), ("happened_at", "1898-07-19")])
            XCTAssertEqual(emptied.status, .unprocessableEntity)
            XCTAssertTrue(emptied.text.contains("Choose who was there (contacts)."), emptied.text)
            let unchanged = try await app.send(.GET, "/api/activities/\(first.id)", headers: api.bearer)
                .decoded(DataEnvelope<ActivityResource>.self).data
            XCTAssertEqual(unchanged.summary, "Lab work, again")
            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            let foreignPage = try await stranger.get("/activities/\(first.id)/edit")
            XCTAssertEqual(foreignPage.status, .notFound)
            let foreign = try await stranger.post("/activities/\(first.id)", form: ["summary": "Mine"])
            XCTAssertEqual(foreign.status, .notFound)

            let deleted = try await browser.post("/activities/\(first.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(ActivitiesTable.self)
            XCTAssertEqual(left, 1)
        }
    }
}
