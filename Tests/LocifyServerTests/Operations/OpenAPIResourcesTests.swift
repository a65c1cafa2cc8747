import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Every wire type, encoded as the server encodes it, fits its schema in /openapi.json key for key: a
/// field added to a resource and not to the document (or the other way round) fails here.
final class OpenAPIResourcesTests: XCTestCase {
    private func encoded<Value: Encodable>(_ value: Value) throws -> JSONValue {
        try JSONValue.parse(String(decoding: try OrderedJSONEncoder().encode(value), as: UTF8.self))
    }

    /// The schema of `status` for `method path`, as the served document has it.
    private func responseSchema(_ document: JSONValue, _ method: String, _ path: String, _ status: String) throws
        -> JSONValue
    {
        try XCTUnwrap(
            document["paths"]?[path]?[method]?["responses"]?[status]?["content"]?["application/json"]?["schema"])
    }

    private var sampleContact: Contact {
        let fields = ContactFields(
            firstName: "Zoë", lastName: "Müller", nickname: nil, description: "Met in Bern",
            birthdate: Birthdate(day: 29, month: 2, year: 1992), gender: Gender(id: 2, name: "Woman", type: "F"),
            job: "Engineer", company: "Navy",
            isStarred: true, isArchived: false)
        return Contact(
            id: 7, uuid: UUID(uuidString: "00000000-0000-0000-0000-000000000007")!, ownerID: 1, fields: fields,
            defaultAvatarColor: Avatar.defaultColors[2], createdAt: TestClock.start, updatedAt: TestClock.start)
    }

    private func callPage(short: ContactShortResource, years: [(year: Int, count: Int)]) -> PageResource<
        CallResource
    > {
        let call = Call(
            id: 4, uuid: UUID(), ownerID: 1, contactID: 7,
            fields: CallFields(
                calledAt: TestClock.start, content: nil, contactCalled: true,
                emotions: [Emotion.emotion(24), Emotion.emotion(1)].compactMap { $0 }),
            createdAt: TestClock.start, updatedAt: TestClock.start)
        let items = years.isEmpty ? [] : [CallResource(call, url: "http://x/api/calls/4", contact: short)]
        var page = PageResource(
            items: items, window: PageWindow(page: 1, limit: 15, total: items.count), path: "http://x/api/calls"
        ) { "http://x/api/calls?page=\($0)" }
        page.meta.statistics = YearlyCounts(years)
        return page
    }

    private func relationship(short: ContactShortResource) -> RelationshipResource {
        RelationshipResource(
            Relationship(
                id: 8, uuid: UUID(), ownerID: 1, contactID: 7, ofContactID: 7, type: RelationshipType.type(8)!,
                createdAt: TestClock.start, updatedAt: TestClock.start),
            url: "http://x/api/relationships/8", contact: short, ofContact: short, typesSince: TestClock.start)
    }

    private func related(_ contact: ContactResource, short: ContactShortResource) -> ContactResource {
        var related = contact
        let friendship = Relationship(
            id: 9, uuid: UUID(), ownerID: 1, contactID: 7, ofContactID: 7, type: RelationshipType.type(18)!,
            createdAt: TestClock.start, updatedAt: TestClock.start)
        related.information.relationships = .init([(friendship, short)])
        return related
    }

    func testEveryResourceFitsItsSchema() async throws {
        try await forEachDatabase { app, _, _ in
            let document = try JSONValue.parse(try await app.send(.GET, "/openapi.json").text)
            let check = SchemaCheck(document: document)
            let avatar = AvatarResource(
                url: "http://x/store/avatars/7?v=i1", source: "default", defaultAvatarColor: Avatar.defaultColors[2])
            let contact = ContactResource(
                sampleContact, url: "http://x/api/contacts/7", avatar: avatar, currentYear: 2024)
            let short = ContactShortResource(
                sampleContact, url: "http://x/api/contacts/7", avatar: avatar, currentYear: 2024)
            let window = PageWindow(page: 1, limit: 15, total: 1)
            let page = PageResource(items: [contact], window: window, path: "http://x/api/contacts") {
                "http://x/api/contacts?page=\($0)"
            }
            let profile = AccountProfile(name: "Ada Lovelace", email: "ada@example.com")
            let user = UserResource(
                id: 1, uuid: UUID(), profile: profile, createdAt: TestClock.start, updatedAt: TestClock.start)
            let root = APIRootResource(
                links: .init(
                    contactsURL: "a", addressesURL: "b", countriesURL: "c", remindersURL: "d", placesURL: "e"))
            let mapAreaPlan = try MapAreaDraft(south: 47.3, west: 8.4, north: 47.4, east: 8.6, maximumZoom: 16)
                .validated()
            let storedArea = MapArea(
                id: 1, uuid: UUID(), ownerID: 1, plan: mapAreaPlan, source: .basemap, byteCount: nil,
                createdAt: TestClock.start)
            let mapArea = MapAreaResource(
                storedArea, tilePath: "/maps/basemap/{z}/{x}/{y}.svg", estimatedBytes: 1_400_000,
                pmtilesURL: "http://x/api/map-areas/a.pmtiles")
            var builtMapArea = mapArea
            builtMapArea.bytes = 612_000
            let examples: [(String, JSONValue, JSONValue)] = [
                ("Contact", try encoded(contact), .object(["$ref": .string("#/components/schemas/Contact")])),
                ("ContactShort", try encoded(short), .object(["$ref": .string("#/components/schemas/ContactShort")])),
                (
                    "show contact", try encoded(DataEnvelope(data: contact)),
                    try responseSchema(document, "get", "/api/contacts/{id}", "200")
                ),
                ("contact list", try encoded(page), try responseSchema(document, "get", "/api/contacts", "200")),
                (
                    "deleted", try encoded(DeletedResource(id: 7)),
                    try responseSchema(document, "delete", "/api/contacts/{id}", "200")
                ),
                ("me", try encoded(DataEnvelope(data: user)), try responseSchema(document, "get", "/api/me", "200")),
                ("root", try encoded(root), try responseSchema(document, "get", "/api", "200")),
                (
                    "oauth", try encoded(OAuthLoginResource(accessToken: "t", expiresIn: 1)),
                    try responseSchema(document, "post", "/oauth/login", "200")
                ),
                (
                    "health", try encoded(HealthResource(status: "ok", database: "sqlite", version: "0")),
                    try responseSchema(document, "get", "/health", "200")
                ),
                (
                    "error", try encoded(ErrorEnvelope(message: .text("Not found"), code: 31)),
                    try responseSchema(document, "get", "/api/contacts/{id}", "404")
                ),
                (
                    "validation error", try encoded(ErrorEnvelope(message: .list(["a", "b"]), code: 32)),
                    try responseSchema(document, "post", "/api/contacts", "422")
                ),
                (
                    "unauthenticated", try encoded(UnauthenticatedResource()),
                    try responseSchema(document, "get", "/api/me", "401")
                ),
            ]
            let placed = ContactAddress(
                id: 3, uuid: UUID(), ownerID: 1, contactID: 7,
                address: PostalAddress(
                    label: "Home", street: "Unter den Linden 1", city: "Berlin", postalCode: "10117", countryCode: "DE",
                    coordinate: Coordinate(latitude: 52.517, longitude: 13.3889)),
                geocode: GeocodeState(status: .done, precision: .street, source: "nominatim"),
                createdAt: TestClock.start,
                updatedAt: TestClock.start)
            let unplaced = ContactAddress(
                id: 4, uuid: UUID(), ownerID: 1, contactID: 7, address: PostalAddress(city: "Lyon"), geocode: .pending,
                createdAt: TestClock.start, updatedAt: TestClock.start)
            let phoneField = ContactFieldResource(
                ContactField(
                    id: 6, uuid: UUID(), ownerID: 1, contactID: 7, typeID: 2, data: "+44 20 7946 0958",
                    labels: [
                        .init(
                            id: 9, label: ContactFieldLabel(type: "cell", label: "Mobile"),
                            createdAt: TestClock.start)
                    ], createdAt: TestClock.start,
                    updatedAt: TestClock.start),
                type: ContactFieldType(
                    id: 2, uuid: UUID(), ownerID: 1, name: "Phone", icon: "fa fa-phone",
                    linkProtocol: "tel:",
                    isDelible: false, type: "phone", createdAt: TestClock.start, updatedAt: TestClock.start),
                contact: short)
            let withAddresses = ContactResource(
                sampleContact, url: "http://x/api/contacts/7", avatar: avatar, currentYear: 2024,
                addresses: [placed, unplaced].map { AddressShortResource($0, url: "http://x/api/addresses/\($0.id)") },
                tags: [Tag(id: 3, ownerID: 1, name: "Family", createdAt: TestClock.start, updatedAt: TestClock.start)],
                counts: ContactCounts(reminders: 1, notes: 2, tasks: 3),
                extras: ContactResource.Extras(
                    contactFields: [phoneField],
                    notes: [
                        NoteResource(
                            Note(
                                id: 4, uuid: UUID(), ownerID: 1, contactID: 7,
                                fields: NoteFields(body: "Met in Bern", isFavorited: false), favoritedAt: nil,
                                createdAt: TestClock.start, updatedAt: TestClock.start),
                            url: "http://x/api/notes/4", contact: short)
                    ]))

            let schedule = ReminderSchedule(
                initialDate: try XCTUnwrap(CalendarDate(year: 2024, month: 1, day: 31)), recurrence: .months(1))
            let reminder = Reminder(
                id: 5, uuid: UUID(), ownerID: 1, contactID: 7,
                fields: ReminderFields(title: "Rent", description: nil, schedule: schedule), isDelible: true,
                createdAt: TestClock.start, updatedAt: TestClock.start)
            let today = try XCTUnwrap(CalendarDate(year: 2024, month: 5, day: 4))
            let more: [(String, JSONValue, JSONValue)] = [
                (
                    "Contact with addresses", try encoded(withAddresses),
                    .object(["$ref": .string("#/components/schemas/Contact")])
                ),
                (
                    "Address", try encoded(AddressResource(placed, url: "http://x/api/addresses/3", contact: short)),
                    .object(["$ref": .string("#/components/schemas/Address")])
                ),
                (
                    "Address without position",
                    try encoded(AddressResource(unplaced, url: "http://x/a/4", contact: short)),
                    .object(["$ref": .string("#/components/schemas/Address")])
                ),
                (
                    "countries", try encoded(DataEnvelope(data: CountryListResource(.bundled))),
                    try responseSchema(document, "get", "/api/countries", "200")
                ),
                (
                    "Reminder", try encoded(ReminderResource(reminder, contact: short, today: today)),
                    .object(["$ref": .string("#/components/schemas/Reminder")])
                ),
                (
                    "Note",
                    try encoded(
                        NoteResource(
                            Note(
                                id: 2, uuid: UUID(), ownerID: 1, contactID: 7,
                                fields: NoteFields(body: "Likes tea", isFavorited: true), favoritedAt: TestClock.start,
                                createdAt: TestClock.start, updatedAt: TestClock.start),
                            url: "http://x/api/notes/2", contact: short)),
                    .object(["$ref": .string("#/components/schemas/Note")])
                ),
                (
                    "a page of calls with the yearly statistics",
                    try encoded(callPage(short: short, years: [(year: 2024, count: 2), (year: 2023, count: 1)])),
                    try responseSchema(document, "get", "/api/calls", "200")
                ),
                (
                    "a page of no calls (statistics [])",
                    try encoded(callPage(short: short, years: [])),
                    try responseSchema(document, "get", "/api/contacts/{id}/calls", "200")
                ),
                (
                    "a debt",
                    try encoded(
                        DataEnvelope(
                            data: DebtResource(
                                Debt(
                                    id: 3, uuid: UUID(), ownerID: 1, contactID: 7,
                                    fields: DebtFields(
                                        ownerOwes: true, amount: Money(minorUnits: 1250, currency: "EUR"),
                                        reason: nil),
                                    createdAt: TestClock.start, updatedAt: TestClock.start), contact: short))),
                    try responseSchema(document, "get", "/api/debts/{id}", "200")
                ),
                (
                    "a gift with a recipient",
                    try encoded(
                        DataEnvelope(
                            data: GiftResource(
                                Gift(
                                    id: 4, uuid: UUID(), ownerID: 1, contactID: 7,
                                    fields: GiftFields(
                                        name: "Scarf", status: .offered, url: "https://example.com",
                                        amount: Money(minorUnits: 1500, currency: "JPY"),
                                        date: CalendarDate(year: 2024, month: 5, day: 1), recipientID: 7),
                                    createdAt: TestClock.start, updatedAt: TestClock.start), recipient: short,
                                contact: short))),
                    try responseSchema(document, "get", "/api/gifts/{id}", "200")
                ),
                (
                    "a gift idea",
                    try encoded(
                        GiftResource(
                            Gift(
                                id: 5, uuid: UUID(), ownerID: 1, contactID: 7,
                                fields: GiftFields(name: "Books", status: .idea), createdAt: TestClock.start,
                                updatedAt: TestClock.start), recipient: nil, contact: short)),
                    .object(["$ref": .string("#/components/schemas/Gift")])
                ),
                (
                    "a pet",
                    try encoded(
                        DataEnvelope(
                            data: PetResource(
                                Pet(
                                    id: 6, uuid: UUID(), ownerID: 1, contactID: 7,
                                    fields: PetFields(category: PetCategory.all[3], name: nil),
                                    createdAt: TestClock.start, updatedAt: TestClock.start), contact: short))),
                    try responseSchema(document, "get", "/api/pets/{id}", "200")
                ),
                (
                    "a life event",
                    try encoded(
                        DataEnvelope(
                            data: LifeEventResource(
                                LifeEvent(
                                    id: 7, uuid: UUID(), ownerID: 1, contactID: 7,
                                    fields: LifeEventFields(
                                        type: LifeEventType.all[9],
                                        happenedOn: CalendarDate(year: 1835, month: 7, day: 8)!,
                                        name: nil, note: "London"),
                                    createdAt: TestClock.start, updatedAt: TestClock.start), contact: short,
                                typesSince: TestClock.start))),
                    try responseSchema(document, "get", "/api/lifeevents/{id}", "200")
                ),
                (
                    "a conversation with a message, its means deleted",
                    try encoded(
                        DataEnvelope(
                            data: ConversationResource(
                                Conversation(
                                    id: 8, uuid: UUID(), ownerID: 1, contactID: 7, happenedAt: TestClock.start,
                                    fieldTypeID: 3,
                                    messages: [
                                        ConversationMessage(
                                            id: 1, uuid: UUID(), content: "Hello", writtenAt: TestClock.start,
                                            writtenByMe: true, createdAt: TestClock.start, updatedAt: TestClock.start)
                                    ], createdAt: TestClock.start, updatedAt: TestClock.start),
                                url: "http://x/api/conversations/8", fieldType: nil, contact: short))),
                    try responseSchema(document, "post", "/api/conversations/{id}/messages", "200")
                ),
                (
                    "an activity with its type",
                    try encoded(
                        DataEnvelope(
                            data: ActivityResource(
                                Activity(
                                    id: 9, uuid: UUID(), ownerID: 1,
                                    fields: ActivityFields(
                                        summary: "Tea", happenedOn: CalendarDate(year: 2024, month: 5, day: 1)!,
                                        emotions: [Emotion.emotion(1)!], attendeeIDs: [7]),
                                    createdAt: TestClock.start, updatedAt: TestClock.start),
                                url: "http://x/api/activities/9",
                                type: ActivityTypeResource(
                                    ActivityType(
                                        id: 2, uuid: UUID(), ownerID: 1, categoryID: 1, name: "went to a bar",
                                        locationType: nil, createdAt: TestClock.start, updatedAt: TestClock.start),
                                    category: ActivityTypeCategory(
                                        id: 1, uuid: UUID(), ownerID: 1, name: "Food", createdAt: TestClock.start,
                                        updatedAt: TestClock.start)), attendees: [short]))),
                    try responseSchema(document, "get", "/api/activities/{id}", "200")
                ),
                (
                    "an occupation at a company, everything unknown",
                    try encoded(
                        DataEnvelope(
                            data: OccupationResource(
                                Occupation(
                                    id: 10, uuid: UUID(), ownerID: 1, contactID: 7,
                                    fields: OccupationFields(companyID: 3, title: "Engineer"),
                                    createdAt: TestClock.start, updatedAt: TestClock.start),
                                company: CompanyResource(
                                    Company(
                                        id: 3, uuid: UUID(), ownerID: 1, fields: CompanyFields(name: "Navy"),
                                        createdAt: TestClock.start, updatedAt: TestClock.start)), contact: short))),
                    try responseSchema(document, "get", "/api/occupations/{id}", "200")
                ),
                (
                    "a page of a place's comments, one edited",
                    try encoded(
                        PageResource(
                            items: [
                                PlaceCommentResource(
                                    PlaceComment(
                                        id: 4, uuid: UUID(), ownerID: 1, placeID: 9, authorID: 2,
                                        body: "Closed on Mondays\nCash only", createdAt: TestClock.start,
                                        updatedAt: TestClock.start.addingTimeInterval(60)),
                                    url: "http://x/api/placecomments/4", authorName: "Grace Hopper")
                            ], window: PageWindow(page: 1, limit: 15, total: 1), path: "http://x/api/places/9/comments"
                        ) { "http://x/api/places/9/comments?page=\($0)" }),
                    try responseSchema(document, "get", "/api/places/{id}/comments", "200")
                ),
                (
                    "a place's pictures",
                    try encoded(
                        DataEnvelope(data: [
                            PlacePhotoResource(
                                PlacePhoto(
                                    id: 3, uuid: UUID(), ownerID: 1, placeID: 9, position: 1,
                                    originalFilename: "terrace.jpg", format: .jpeg, byteCount: 2048, width: 800,
                                    height: 600, digest: "ab", createdAt: TestClock.start, updatedAt: TestClock.start),
                                link: "http://x/store/place-photos/x.jpg?expires=1&signature=ab")
                        ])),
                    try responseSchema(document, "get", "/api/places/{id}/photos", "200")
                ),
                (
                    "a page of companies",
                    try encoded(
                        PageResource(
                            items: [
                                CompanyResource(
                                    Company(
                                        id: 3, uuid: UUID(), ownerID: 1,
                                        fields: CompanyFields(
                                            name: "Navy", website: "https://navy.example", numberOfEmployees: 3000),
                                        createdAt: TestClock.start, updatedAt: TestClock.start))
                            ], window: PageWindow(page: 1, limit: 15, total: 1), path: "http://x/api/companies"
                        ) { "http://x/api/companies?page=\($0)" }),
                    try responseSchema(document, "get", "/api/companies", "200")
                ),
                (
                    "a contact's relationships",
                    try encoded(DataEnvelope(data: [relationship(short: short)])),
                    try responseSchema(document, "get", "/api/contacts/{id}/relationships", "200")
                ),
                (
                    "a contact with relationships",
                    try encoded(related(contact, short: short)),
                    .object(["$ref": .string("#/components/schemas/Contact")])
                ),
                (
                    "a page of relationship types",
                    try encoded(
                        PageResource(
                            items: RelationshipType.all.prefix(15).map {
                                RelationshipTypeResource($0, ownerID: 1, since: TestClock.start)
                            }, window: PageWindow(page: 1, limit: 15, total: 27), path: "http://x/api/relationshiptypes"
                        ) { "http://x/api/relationshiptypes?page=\($0)" }),
                    try responseSchema(document, "get", "/api/relationshiptypes", "200")
                ),
                (
                    "a relationship type group",
                    try encoded(
                        DataEnvelope(
                            data: RelationshipTypeGroupResource(.work, ownerID: 1, since: TestClock.start))),
                    try responseSchema(document, "get", "/api/relationshiptypegroups/{id}", "200")
                ),
                (
                    "Journal entry",
                    try encoded(
                        JournalEntryResource(
                            JournalEntry(
                                id: 5, uuid: UUID(), ownerID: 1,
                                fields: JournalEntryFields(title: "Lyon", post: "Climbed."),
                                createdAt: TestClock.start, updatedAt: TestClock.start),
                            url: "http://x/api/journal/5")),
                    .object(["$ref": .string("#/components/schemas/JournalEntry")])
                ),
                (
                    "Tag",
                    try encoded(
                        TagResource(
                            Tag(
                                id: 3, ownerID: 1, name: "Book club", createdAt: TestClock.start,
                                updatedAt: TestClock.start))),
                    .object(["$ref": .string("#/components/schemas/Tag")])
                ),
                (
                    "Contact field", try encoded(phoneField),
                    .object(["$ref": .string("#/components/schemas/ContactField")])
                ),
                (
                    "Contact field type without a protocol",
                    try encoded(
                        ContactFieldTypeResource(
                            ContactFieldType(
                                id: 3, uuid: UUID(), ownerID: 1, name: "Mastodon", icon: nil, linkProtocol: nil,
                                isDelible: true, type: nil, createdAt: TestClock.start, updatedAt: TestClock.start))),
                    .object(["$ref": .string("#/components/schemas/ContactFieldType")])
                ),
                (
                    "Task about no one",
                    try encoded(
                        TaskResource(
                            ToDo(
                                id: 4, uuid: UUID(), ownerID: 1, contactID: nil,
                                fields: ToDoFields(title: "Stamps", description: nil, isCompleted: false),
                                completedAt: nil, createdAt: TestClock.start, updatedAt: TestClock.start),
                            contact: nil)),
                    .object(["$ref": .string("#/components/schemas/Task")])
                ),
                (
                    "Task done",
                    try encoded(
                        TaskResource(
                            ToDo(
                                id: 5, uuid: UUID(), ownerID: 1, contactID: 7,
                                fields: ToDoFields(title: "Call", description: "Soon", isCompleted: true),
                                completedAt: TestClock.start, createdAt: TestClock.start, updatedAt: TestClock.start),
                            contact: short)),
                    .object(["$ref": .string("#/components/schemas/Task")])
                ),
                (
                    "Place",
                    try encoded(
                        PlaceResource(
                            Place(
                                id: 3, uuid: UUID(), ownerID: 1, categoryID: 2,
                                fields: PlaceFields(
                                    name: "Louvre", address: nil,
                                    coordinate: Coordinate(latitude: 48.86, longitude: 2.34),
                                    notes: "Art", isFavorite: true), createdAt: TestClock.start,
                                updatedAt: TestClock.start),
                            categoryName: "Museums", url: "http://x/api/places/3", distanceKm: 1.234)),
                    .object(["$ref": .string("#/components/schemas/Place")])
                ),
                (
                    "import report",
                    try encoded(
                        PlaceImportReportResource(
                            format: "gpx", dryRun: false,
                            rows: [
                                .init(row: 1, name: "Louvre", outcome: "created", placeID: 3, reason: nil),
                                .init(
                                    row: 2, name: "x", outcome: "skipped", placeID: nil, reason: "Latitude is required."
                                ),
                            ], unreadable: [.init(record: 4, reason: "no coordinates")])),
                    try responseSchema(document, "post", "/api/places/import", "200")
                ),
                (
                    "background import",
                    try encoded(
                        DataEnvelope(
                            data: PlaceImportJobResource(
                                id: 4, status: "done", fileName: "stops.csv", stage: nil, processed: 2, total: 2,
                                report: PlaceImportReportResource(
                                    format: "csv", dryRun: false,
                                    rows: [.init(row: 1, name: "A", outcome: "created", placeID: 1, reason: nil)],
                                    unreadable: []),
                                error: nil, url: "http://x/api/imports/4", createdAt: TestClock.start,
                                updatedAt: TestClock.start))),
                    try responseSchema(document, "get", "/api/imports/{id}", "200")
                ),
                (
                    "queued import",
                    try encoded(
                        DataEnvelope(
                            data: PlaceImportJobResource(
                                id: 4, status: "running", fileName: "stops.csv", stage: "saving", processed: 1,
                                total: 2, report: nil, error: nil, url: "http://x/api/imports/4",
                                createdAt: TestClock.start, updatedAt: TestClock.start))),
                    try responseSchema(document, "post", "/api/places/import", "202")
                ),
                (
                    "categories",
                    try encoded(
                        PlaceCategoryListResource(
                            data: [
                                PlaceCategoryResource(
                                    PlaceCategory(
                                        id: 2, ownerID: 1, name: "Museums", createdAt: TestClock.start,
                                        updatedAt: TestClock.start), placesCount: 1)
                            ], favoritesCount: 1)),
                    try responseSchema(document, "get", "/api/categories", "200")
                ),
                (
                    "Photo",
                    try encoded(
                        PhotoResource(
                            Photo(
                                id: 2, uuid: UUID(), ownerID: 1, contactID: 7, originalFilename: "me.png", format: .png,
                                byteCount: 3, width: 640, height: 480, digest: "ab", createdAt: TestClock.start,
                                updatedAt: TestClock.start), bytes: [1, 2, 3], link: "http://x/store/photos/a.png",
                            contact: short)),
                    .object(["$ref": .string("#/components/schemas/Photo")])
                ),
                (
                    "upcoming",
                    try encoded(DataEnvelope(data: [UpcomingReminderResource(reminder, on: today, contact: short)])),
                    try responseSchema(document, "get", "/api/reminders/upcoming/{month}", "200")
                ),
                (
                    "sync pull",
                    try encoded(
                        SyncPullResource(
                            changes: [
                                SyncChangeResource(
                                    uuid: sampleContact.uuid, id: 7, revision: 3, data: .contact(contact)),
                                SyncChangeResource(
                                    uuid: UUID(), id: 9, revision: 4,
                                    data: .contactTag(
                                        ContactTagResource(
                                            id: 9, uuid: UUID(), contactID: 7, tagID: 3, ownerID: 1,
                                            createdAt: TestClock.start))),
                            ],
                            deletions: [SyncDeletionResource(type: "address", uuid: UUID(), id: 4, revision: 5)],
                            cursor: "1.5.9999.0", hasMore: false)),
                    try responseSchema(document, "get", "/api/sync", "200")
                ),
                (
                    "sync push",
                    try encoded(
                        SyncPushAnswerResource(
                            results: [
                                SyncPushResultResource(id: 1, status: .applied, data: .contact(contact), revision: 6),
                                SyncPushResultResource(id: 2, status: .applied),
                                SyncPushResultResource(
                                    id: 3, status: .rejected,
                                    errors: [SyncFieldErrorResource(field: "first_name", message: "Required.")]),
                                SyncPushResultResource(
                                    id: 4, status: .conflict,
                                    errors: [SyncFieldErrorResource(field: nil, message: "Deleted meanwhile.")]),
                            ], cursor: "1.5.9999.0")),
                    try responseSchema(document, "post", "/api/sync", "200")
                ),
                (
                    "sync cursor too old", try encoded(ErrorEnvelope(message: .text("Download again."), code: 410)),
                    try responseSchema(document, "get", "/api/sync", "410")
                ),
                (
                    "map area", try encoded(DataEnvelope(data: mapArea)),
                    try responseSchema(document, "post", "/api/map-areas", "201")
                ),
                (
                    "map areas", try encoded(DataEnvelope(data: [mapArea, builtMapArea])),
                    try responseSchema(document, "get", "/api/map-areas", "200")
                ),
                (
                    "map area estimate",
                    try encoded(
                        DataEnvelope(
                            data: MapAreaEstimateResource(mapAreaPlan, estimatedBytes: 1_400_000, source: .basemap))),
                    try responseSchema(document, "post", "/api/map-areas/estimate", "200")
                ),
                (
                    "map area deleted", try encoded(MapAreaDeletedResource(id: UUID())),
                    try responseSchema(document, "delete", "/api/map-areas/{id}", "200")
                ),
            ]
            let timeline = ReminderTimelineResource(
                Timeline.of([reminder.outline], today: today, weekStartsOn: 2), reminder: { _ in reminder.outline },
                nextPage: { "http://x/api/reminders/timeline/\($0.rawValue)?page=2" },
                contact: { _ in .init(id: 7, name: "Zoë Müller", avatar: avatar) })
            let timelineExample: (String, JSONValue, JSONValue) = (
                "timeline", try encoded(DataEnvelope(data: timeline)),
                try responseSchema(document, "get", "/api/reminders/timeline", "200")
            )
            let feedExample: (String, JSONValue, JSONValue) = (
                "feed", try encoded(DataEnvelope(data: ReminderFeedResource(url: "http://x/feeds/abc/reminders.ics"))),
                try responseSchema(document, "get", "/api/reminders/feed", "200")
            )
            for (name, value, schema) in examples + more + [timelineExample, feedExample] {
                XCTAssertEqual(check.problems(value, against: schema), [], name)
            }
            // The checker itself notices drift both ways.
            var extra = try encoded(DeletedResource(id: 7))
            if case .object(var object) = extra {
                object["undocumented"] = .bool(true)
                extra = .object(object)
            }
            XCTAssertEqual(
                check.problems(extra, against: try responseSchema(document, "delete", "/api/contacts/{id}", "200")),
                ["$.undocumented: sent, but not in the schema"])
            XCTAssertEqual(
                check.problems(
                    .object(["deleted": .bool(true)]),
                    against: try responseSchema(document, "delete", "/api/contacts/{id}", "200")),
                ["$.id: in the schema, but not sent"])
        }
    }
}
