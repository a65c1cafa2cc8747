import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/lifeevents`: Monica's life event with its fixed types and categories, a yearly reminder when
/// asked, validation, ownership, the sync feed, and the contact page's Life events.
final class LifeEventsTests: XCTestCase {
    func testALifeEventsShapeMatchesMonicasAndItsReminderIsMade() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let response = try await app.send(
                .POST, "/api/lifeevents", headers: account.bearer,
                json: #"""
                    {"contact_id": \#(ada.id), "life_event_type_id": 10, "happened_at": "1835-07-08",
                     "name": " Married William ", "note": "In London", "has_reminder": true,
                     "happened_at_month_unknown": false, "happened_at_day_unknown": false}
                    """#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<LifeEventResource>.self).data
            let adaJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            let stamp =
                #""account":{"id":\#(account.id)},"created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z""#
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"lifeevent","name":"Married William","#
                    + #""note":"In London","happened_at":"1835-07-08T00:00:00Z","life_event_type":{"id":10,"#
                    + #""object":"lifeeventtype","name":"Marriage","core_monica_data":true,"#
                    + #""default_life_event_type_key":"marriage","life_event_category":{"id":2,"#
                    + #""object":"lifeeventcategory","name":"Family and relationships","core_monica_data":true,"#
                    + #""default_life_event_category_key":"family_relationships",\#(stamp)},\#(stamp)},"#
                    + #""account":{"id":\#(account.id)},"contact":\#(adaJSON),"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","#
                    + #""contact_id":\#(ada.id)}}"#)
            // `has_reminder`: a yearly reminder of the day.
            let reminders = try await app.send(.GET, "/api/contacts/\(ada.id)/reminders", headers: account.bearer)
            let reminder = try XCTUnwrap(try reminders.decoded(PageResource<ReminderResource>.self).data.first)
            XCTAssertEqual(reminder.title, "Married William")
            XCTAssertEqual(reminder.frequencyType, "year")
            XCTAssertTrue(reminder.initialDate.hasPrefix("1835-07-08"), reminder.initialDate)

            // An update keeps what it leaves out; a date-time's UTC day is taken.
            clock.advance(by: 60)
            let changed = try await app.send(
                .PUT, "/api/lifeevents/\(made.id)", headers: account.bearer,
                json: #"{"life_event_type_id": "1", "happened_at": "1843-09-01T23:30:00-02:00", "name": null}"#)
            XCTAssertEqual(changed.status, .ok, changed.text)
            let updated = try changed.decoded(DataEnvelope<LifeEventResource>.self).data
            XCTAssertEqual(updated.lifeEventType.defaultLifeEventTypeKey, "new_job")
            XCTAssertEqual(updated.happenedAt, "1843-09-02T00:00:00Z")
            XCTAssertNil(updated.name)
            XCTAssertEqual(updated.note, "In London")
            let list = try await app.send(.GET, "/api/lifeevents?contact_id=\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try list.decoded(PageResource<LifeEventResource>.self).data.map(\.id), [made.id])

            // Refused whole; another account's are not found.
            let cases: [(String, [String])] = [
                (
                    "{}",
                    [
                        "Choose the contact this life event is about.", "Choose the kind of event.",
                        "The date of the event is required.",
                    ]
                ),
                (
                    #"{"contact_id": \#(ada.id), "life_event_type_id": 44, "happened_at": "yesterday"}"#,
                    ["The selected life event type id is invalid.", "The date of the event is not a valid date."]
                ),
            ]
            for (json, messages) in cases {
                let refused = try await app.send(.POST, "/api/lifeevents", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
                XCTAssertEqual(try refused.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            let other = try await app.makeAccount(email: "grace@example.com")
            for (method, path) in [
                (HTTPMethod.GET, "/api/lifeevents/\(made.id)"), (.DELETE, "/api/lifeevents/\(made.id)"),
                (.GET, "/api/contacts/\(ada.id)/lifeevents"),
            ] {
                let foreign = try await app.send(method, path, headers: other.bearer)
                XCTAssertEqual(foreign.status, .notFound, path)
            }
            let count = try await app.count(LifeEventsTable.self)
            XCTAssertEqual(count, 1)

            // The sync feed carries it, and the contact's deletion takes it.
            let pulled = try await app.send(.GET, "/api/sync?types=lifeevent", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["lifeevent"], pulled.text)
            _ = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            let after = try await app.send(
                .GET, "/api/sync?types=lifeevent&cursor=\(feed.cursor)", headers: account.bearer)
            XCTAssertEqual(try after.decoded(SyncPullResource.self).deletions.map(\.uuid), [made.uuid])
        }
    }

    func testLifeEventsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(#"aria-labelledby="life-events-heading" id="life-events""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No life events yet."))

            let refused = try await browser.post(
                page + "/life-events", form: ["happened_at": "1903-12-10", "name": "Kept as typed"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("Choose the kind of event."), refused.text)
            XCTAssertTrue(refused.text.contains(#"value="Kept as typed""#))

            let added = try await browser.post(
                page + "/life-events",
                form: ["life_event_type_id": "40", "happened_at": "1903-12-10", "name": "Nobel Prize in Physics"])
            XCTAssertEqual(added.status, .seeOther, added.text)
            _ = try await browser.post(
                page + "/life-events", form: ["life_event_type_id": "10", "happened_at": "1895-07-26"])
            detail = try await browser.get(page)
            let nobel = try XCTUnwrap(
                detail.text.range(
                    of: "<strong>Nobel Prize in Physics</strong> · 10 December 1903 · Achievement or award"))
            let marriage = try XCTUnwrap(detail.text.range(of: "<strong>Marriage</strong> · 26 July 1895</p>"))
            XCTAssertLessThan(nobel.lowerBound, marriage.lowerBound, "newest first")

            let api = try await app.apiAccount(email: "grace@example.com")
            let events = try await app.send(.GET, "/api/lifeevents", headers: api.bearer)
                .decoded(PageResource<LifeEventResource>.self).data
            let deleted = try await browser.post("/life-events/\(events[0].id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(LifeEventsTable.self)
            XCTAssertEqual(left, 1)
        }
    }
}
