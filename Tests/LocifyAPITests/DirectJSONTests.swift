import Foundation
import LocifyCore
import XCTest

@testable import LocifyAPI

/// The resources that write their own JSON write exactly what their synthesised `Encodable` writes.
final class DirectJSONTests: XCTestCase {
    private func contacts() -> [Contact] {
        let names: [(String, String?, String?)] = [
            ("Zoë", "Müller", "Zo"), ("Ada", nil, nil), ("Quote \"me\"", "Back\\slash", "Line\nbreak\u{2028}"),
            ("王", "芳", nil), ("Дмитрий", "Иванов", "Dima"),
        ]
        return names.enumerated().map { index, name in
            let birthdates = [
                Birthdate(day: 29, month: 2, year: 1992), Birthdate(day: 1, month: 1, year: 1980, isAgeBased: true),
                Birthdate(day: 31, month: 12, year: nil), nil,
            ]
            let fields = ContactFields(
                firstName: name.0, lastName: name.1, nickname: name.2,
                description: index.isMultiple(of: 2) ? "Notes \u{1}\t" : nil,
                birthdate: birthdates[index % birthdates.count],
                gender: [Gender(id: 1, name: "Man", type: "M"), Gender(id: 2, name: "Woman", type: "F"), nil][
                    index % 3], isStarred: index == 1,
                isArchived: index == 2)
            return Contact(
                id: index + 1, uuid: UUID(), ownerID: 3, fields: fields,
                defaultAvatarColor: Avatar.defaultColors[index],
                createdAt: Date(timeIntervalSince1970: 1_714_817_165 + Double(index)),
                updatedAt: Date(timeIntervalSince1970: 1_714_900_000))
        }
    }

    private func json<Value: Encodable>(_ value: Value, direct: Bool) throws -> String {
        String(decoding: try OrderedJSONEncoder(usesDirectWriters: direct).encodedBytes(value), as: UTF8.self)
    }

    func testEveryContactShapeWritesTheSameBytesBothWays() throws {
        for contact in contacts() {
            let avatar = AvatarResource(
                url: contact.id == 2 ? "https://example.com/a.png" : nil, source: "default",
                defaultAvatarColor: contact.defaultAvatarColor)
            let full = ContactResource(
                contact, url: "http://x/api/contacts/\(contact.id)", avatar: avatar, currentYear: 2024)
            let short = ContactShortResource(
                contact, url: "http://x/api/contacts/\(contact.id)", avatar: avatar, currentYear: 2024)
            XCTAssertEqual(try json(full, direct: true), try json(full, direct: false))
            XCTAssertEqual(try json(short, direct: true), try json(short, direct: false))

            // Parts not modelled yet go through the generic path once they hold something.
            var related = full
            let friendship = Relationship(
                id: 9, uuid: contact.uuid, ownerID: 3, contactID: contact.id, ofContactID: contact.id,
                type: RelationshipType.type(18)!, createdAt: contact.createdAt, updatedAt: contact.updatedAt)
            related.information.relationships = .init([(friendship, short)])
            related.information.career = .init(job: "Engineer", company: nil)
            related.information.howYouMet.generalInformation = "At work"
            related.statistics.numberOfCalls = 3
            related.addresses = [
                AddressShortResource(
                    ContactAddress(
                        id: 7, uuid: contact.uuid, ownerID: 3, contactID: contact.id,
                        address: PostalAddress(
                            label: "Home", street: "Unter den Linden 1", city: "Berlin", postalCode: "10117",
                            countryCode: "DE", coordinate: Coordinate(latitude: 52.5170365, longitude: 13.3888599)),
                        geocode: .typedByUser, createdAt: contact.createdAt, updatedAt: contact.updatedAt),
                    url: "http://x/api/addresses/7")
            ]
            related.tags = [
                TagResource(
                    Tag(
                        id: 4, ownerID: 3, name: "Zoë's \"club\"", createdAt: contact.createdAt,
                        updatedAt: contact.updatedAt))
            ]
            XCTAssertEqual(try json(related, direct: true), try json(related, direct: false))
            XCTAssertTrue(
                try json(related, direct: true).contains(#""friend":{"total":1,"contacts":[{"relationship":{"id":9,"#))
            XCTAssertTrue(try json(related, direct: true).contains(#""tags":[{"id":4,"object":"tag","#))

            // `with=contactfields`: the fields and notes sit between the statistics and the URL.
            related.contactFields = []
            related.notes = [
                NoteResource(
                    Note(
                        id: 9, uuid: contact.uuid, ownerID: 3, contactID: contact.id,
                        fields: NoteFields(body: "Line\none", isFavorited: true), favoritedAt: contact.createdAt,
                        createdAt: contact.createdAt, updatedAt: contact.updatedAt),
                    url: "http://x/api/notes/9", contact: short)
            ]
            let withExtras = try json(related, direct: true)
            XCTAssertEqual(withExtras, try json(related, direct: false))
            XCTAssertTrue(withExtras.contains(#""number_of_debts":0},"contactFields":[],"notes":[{"id":9,"#))
        }

        let window = PageWindow(page: 1, limit: 15, total: 5)
        let page = PageResource(
            items: contacts().map {
                ContactResource(
                    $0, url: "u", avatar: AvatarResource(url: nil, source: "default", defaultAvatarColor: "#fff"),
                    currentYear: 2024)
            }, window: window, path: "p"
        ) { "p?page=\($0)" }
        XCTAssertEqual(try json(page, direct: true), try json(page, direct: false))
        let empty = PageResource<ContactResource>(
            items: [], window: PageWindow(page: 1, limit: 15, total: 0), path: "p"
        ) {
            "p?page=\($0)"
        }
        XCTAssertEqual(try json(empty, direct: true), try json(empty, direct: false))
        XCTAssertTrue(try json(empty, direct: true).hasPrefix(#"{"data":[],"links":"#))
    }

    func testReminderListsWriteTheSameBytesBothWays() throws {
        let people = contacts()
        let today = try XCTUnwrap(CalendarDate(iso8601: "2024-05-04"))
        let schedules: [(String, Recurrence)] = [
            ("2024-05-01", .once), ("2020-05-04", .years(1)), ("2024-05-05", .weeks(2)), ("2024-01-31", .months(1)),
            ("2025-02-28", .months(3)),
        ]
        let reminders = schedules.enumerated().map { index, schedule in
            Reminder(
                id: index + 10, uuid: UUID(), ownerID: 3, contactID: people[index % 2].id,
                fields: ReminderFields(
                    title: ["Call \"her\"", "Brunch\n🥐", "Rent", "Ünïcode", "\u{2028}"][index],
                    description: index.isMultiple(of: 2) ? nil : "Notes\t\u{1}",
                    schedule: ReminderSchedule(
                        initialDate: try! XCTUnwrap(CalendarDate(iso8601: schedule.0)), recurrence: schedule.1)),
                isDelible: index != 1, createdAt: Date(timeIntervalSince1970: 1_714_817_165),
                updatedAt: Date(timeIntervalSince1970: 1_714_900_000))
        }
        let byID = Dictionary(uniqueKeysWithValues: people.map { ($0.id, $0) })
        func avatar(_ contact: Contact) -> AvatarResource {
            AvatarResource(url: nil, source: "default", defaultAvatarColor: contact.defaultAvatarColor)
        }
        for limit in [ReminderTimelineResource.defaultLimit, 1] {
            // At a limit of one, the groups with more carry a next page (a string where the others have null).
            let timeline = ReminderTimelineResource(
                Timeline.of(reminders.map(\.outline), today: today, weekStartsOn: 2),
                reminder: { reminders[$0].outline },
                limit: limit, nextPage: { "http://x/api/reminders/timeline/\($0.rawValue)?page=2" },
                contact: { reminder in
                    byID[reminder.contactID].map { .init(id: $0.id, name: $0.completeName, avatar: avatar($0)) }
                })
            XCTAssertEqual(timeline.overdue.count + timeline.today.count + timeline.later.count > 0, true)
            XCTAssertEqual(try json(timeline, direct: true), try json(timeline, direct: false))
        }
        let upcoming = (reminders + reminders).map { reminder in  // each contact twice: written once, copied once
            UpcomingReminderResource(
                reminder, on: today,
                contact: ContactShortResource(
                    byID[reminder.contactID]!, url: "http://x/api/contacts/\(reminder.contactID)",
                    avatar: avatar(byID[reminder.contactID]!), currentYear: 2024))
        }
        XCTAssertEqual(try json(upcoming, direct: true), try json(upcoming, direct: false))
        XCTAssertEqual(try json([UpcomingReminderResource](), direct: true), "[]")
    }

    func testAddressesAndPlacesWriteTheSameBytesBothWays() throws {
        let people = contacts()
        let postal: [PostalAddress] = [
            PostalAddress(
                label: "Home", street: "Unter den Linden 1\nHinterhaus", city: "Berlin", postalCode: "10117",
                countryCode: "DE", coordinate: Coordinate(latitude: 52.5170365, longitude: -13.3888599)),
            PostalAddress(
                street: "1600 \"Amphitheatre\" Pkwy", city: "Mountain View", province: "CA", countryCode: "US"),
            PostalAddress(city: "東京都", countryCode: "JP", coordinate: Coordinate(latitude: 35.6, longitude: 139)),
            PostalAddress(),
        ]
        let states: [GeocodeState] = [
            .typedByUser, GeocodeState(status: .done, precision: .street, source: "nominatim"), .pending, .notFound,
        ]
        var changes: [SyncChangeResource] = []
        for (index, address) in postal.enumerated() {
            let contact = people[index]
            let stored = ContactAddress(
                id: index + 20, uuid: UUID(), ownerID: 3, contactID: contact.id, address: address,
                geocode: states[index], createdAt: contact.createdAt, updatedAt: contact.updatedAt)
            let short = ContactShortResource(
                contact, url: "http://x/api/contacts/\(contact.id)",
                avatar: AvatarResource(url: nil, source: "default", defaultAvatarColor: "#fff"), currentYear: 2024)
            let full = AddressResource(stored, url: "http://x/api/addresses/\(stored.id)", contact: short)
            let inContact = AddressShortResource(stored, url: "http://x/api/addresses/\(stored.id)")
            XCTAssertEqual(try json(full, direct: true), try json(full, direct: false))
            XCTAssertEqual(try json(inContact, direct: true), try json(inContact, direct: false))
            XCTAssertEqual(try json([full, full], direct: true), try json([full, full], direct: false))
            changes.append(
                SyncChangeResource(uuid: stored.uuid, id: stored.id, revision: index + 1, data: .address(full)))
            changes.append(
                SyncChangeResource(
                    uuid: contact.uuid, id: contact.id, revision: index + 1,
                    data: .contact(
                        ContactResource(
                            contact, url: "http://x/api/contacts/\(contact.id)",
                            avatar: AvatarResource(url: nil, source: "default", defaultAvatarColor: "#fff"),
                            currentYear: 2024))))
            changes.append(
                SyncChangeResource(
                    uuid: stored.uuid, id: index + 40, revision: index + 1,
                    data: .note(
                        NoteResource(
                            Note(
                                id: index + 40, uuid: stored.uuid, ownerID: 3, contactID: contact.id,
                                fields: NoteFields(body: "Note \"\(index)\"", isFavorited: index == 1),
                                favoritedAt: nil, createdAt: contact.createdAt, updatedAt: contact.updatedAt),
                            url: "http://x/api/notes/\(index + 40)", contact: short))))
        }

        let fields: [PlaceFields] = [
            PlaceFields(name: "Café \"Zoë\"", coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522)),
            PlaceFields(
                name: "Line\nbreak\u{2028}", address: "1 Rue de Rivoli, Paris",
                coordinate: Coordinate(latitude: -33.8688197, longitude: 151.2092955), notes: "Tab\there",
                isFavorite: true, source: "gpx", externalID: "wpt-7"),
        ]
        for (index, placeFields) in fields.enumerated() {
            let place = Place(
                id: index + 30, uuid: UUID(), ownerID: 3, categoryID: 5, fields: placeFields,
                createdAt: Date(timeIntervalSince1970: 1_714_817_165),
                updatedAt: Date(timeIntervalSince1970: 1_714_900_000))
            for distance in [nil, 1.23456, 0] as [Double?] {
                let resource = PlaceResource(
                    place, categoryName: "Cafés & \"bars\"", url: "http://x/api/places/\(place.id)",
                    distanceKm: distance)
                XCTAssertEqual(try json(resource, direct: true), try json(resource, direct: false))
                changes.append(SyncChangeResource(uuid: place.uuid, id: place.id, revision: 9, data: .place(resource)))
            }
        }

        // A page of the sync feed: every kind of record, and deletions with and without a uuid.
        let deletions = [
            SyncDeletionResource(type: "contact", uuid: UUID(), id: 4, revision: 10),
            SyncDeletionResource(type: "address", uuid: nil, id: 5, revision: 11),
        ]
        for page in [
            SyncPullResource(changes: changes, deletions: deletions, cursor: "1.11.14.2", hasMore: true),
            SyncPullResource(changes: [], deletions: [], cursor: "1.0.-1.0", hasMore: false),
        ] {
            XCTAssertEqual(try json(page, direct: true), try json(page, direct: false))
        }
        XCTAssertTrue(
            try json(SyncPullResource(changes: [], deletions: deletions, cursor: "c", hasMore: false), direct: true)
                .contains(#"{"type":"address","id":5,"revision":11}"#))
    }

    func testPagesWriteTheSameBytesBothWays() throws {
        let resources = contacts().map {
            ContactResource(
                $0, url: "http://x/api/contacts/\($0.id)",
                avatar: AvatarResource(url: nil, source: "default", defaultAvatarColor: "#fff"), currentYear: 2024)
        }
        // First, middle (both pager gaps), last, past the end and an empty list; a query with a quote.
        for (page, total) in [(1, 5), (7, 200), (14, 200), (30, 200), (1, 0)] {
            let window = PageWindow(page: page, limit: 15, total: total)
            let contactsPage = PageResource(
                items: resources, window: window, path: "http://x/api/contacts",
                pageURL: { "http://x/api/contacts?query=\"a\"&page=\($0)" })
            XCTAssertEqual(try json(contactsPage, direct: true), try json(contactsPage, direct: false))
            let tagsPage = PageResource(
                items: [TagResource(Tag(id: 4, ownerID: 3, name: "Zoë", createdAt: Date(), updatedAt: Date()))],
                window: window, path: "http://x/api/tags", pageURL: { "http://x/api/tags?page=\($0)" })
            XCTAssertEqual(try json(tagsPage, direct: true), try json(tagsPage, direct: false))
        }
        XCTAssertTrue(
            try json(
                PageResource(
                    items: resources, window: PageWindow(page: 7, limit: 15, total: 200), path: "p",
                    pageURL: { "u\($0)" }), direct: true
            ).contains(#"{"url":null,"label":"...","active":false},{"url":"u4""#))
    }
}
