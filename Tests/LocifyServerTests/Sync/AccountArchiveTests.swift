import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Settings → Import and export → Export everything, and the import of that file: an account moves to
/// another server, or to another account, whole.
final class AccountArchiveTests: XCTestCase {
    /// An account moved to another server (the other database, where there is PostgreSQL) comes back
    /// record for record, with its uuids and its times; importing the file again adds nothing.
    func testAnAccountMovesToAnotherServerWhole() async throws {
        let databases = PostgresCluster.testedDatabases
        let pairs =
            databases.count > 1
            ? [(databases[0], databases[1]), (databases[1], databases[0])] : [(databases[0], databases[0])]
        for (from, to) in pairs {
            try await withApp(from) { source, sourceClock in
                let browser = WebClient(app: source)
                _ = try await browser.register(email: "ada@example.com")
                try await Self.fill(source, email: "ada@example.com", clock: sourceClock)
                let exported = try await browser.get("/settings/export/account.json")
                XCTAssertEqual(exported.status, .ok, "\(from): \(exported.text)")
                XCTAssertEqual(
                    exported.headers.first(name: .contentDisposition),
                    "attachment; filename=\"locify-account-\(Self.day(sourceClock.now)).json\"")
                XCTAssertTrue(exported.text.hasPrefix(#"{"format":"locify-account","version":1,"#), exported.text)
                let original = try Self.records(exported.text)
                XCTAssertEqual(
                    Set(original.map(\.type)), Set(SyncRecord.types), "\(from): every kind of record is in the file")

                try await withApp(to) { target, targetClock in
                    targetClock.advance(by: 30 * 86_400)
                    let mover = WebClient(app: target)
                    _ = try await mover.register(name: "Ada Byron", email: "ada@example.org")
                    let settings = try await mover.get("/settings")
                    XCTAssertTrue(settings.text.contains(#"action="/settings/import/account""#))
                    XCTAssertTrue(settings.text.contains(#"href="/settings/export/account.json""#))
                    let imported = try await mover.upload(
                        "/settings/import/account", fileName: "account.json", contentType: "application/json",
                        contents: exported.text)
                    XCTAssertEqual(imported.status, .ok, "\(from) → \(to): \(imported.text)")
                    XCTAssertFalse(imported.text.contains("Left out"), "\(from) → \(to): \(imported.text)")
                    let moved = try await mover.get("/settings/export/account.json")
                    try Self.assertSame(
                        try Self.records(moved.text), original, keepingUUIDs: true, "\(from) → \(to)")

                    let again = try await mover.upload(
                        "/settings/import/account", fileName: "account.json", contentType: "application/json",
                        contents: exported.text)
                    XCTAssertTrue(
                        again.text.contains(
                            "Added 0 records; \(original.count.formatted()) records were here already."),
                        "\(from) → \(to): \(again.text)")
                    let unchanged = try await mover.get("/settings/export/account.json")
                    try Self.assertSame(
                        try Self.records(unchanged.text), original, keepingUUIDs: true, "\(from) → \(to), again")
                }
            }
        }
    }

    /// Another account of the same server gets a copy of its own: new uuids (the first account keeps
    /// its), the same records, and the first account is untouched.
    func testAnotherAccountOfTheSameServerGetsACopyOfItsOwn() async throws {
        try await forEachDatabase { app, clock, database in
            let first = WebClient(app: app)
            _ = try await first.register(email: "ada@example.com")
            try await Self.fill(app, email: "ada@example.com", clock: clock)
            let exported = try await first.get("/settings/export/account.json")
            let original = try Self.records(exported.text)

            let second = WebClient(app: app)
            _ = try await second.register(name: "Charles Babbage", email: "charles@example.com")
            try await second.get("/settings")
            let imported = try await second.upload(
                "/settings/import/account", fileName: "account.json", contentType: "application/json",
                contents: exported.text)
            XCTAssertEqual(imported.status, .ok, "\(database): \(imported.text)")
            let copy = try Self.records(try await second.get("/settings/export/account.json").text)
            try Self.assertSame(copy, original, keepingUUIDs: false, "\(database): the copy")
            XCTAssertTrue(
                Set(copy.map(\.uuid)).isDisjoint(with: Set(original.map(\.uuid))), "\(database): uuids of its own")
            let after = try Self.records(try await first.get("/settings/export/account.json").text)
            try Self.assertSame(after, original, keepingUUIDs: true, "\(database): the first account")
        }
    }

    /// A file that is not an account's export is refused with what is wrong, and nothing is written.
    func testAFileThatIsNotAnAccountsExportChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register(email: "ada@example.com")
            try await browser.get("/settings")
            let before = try await browser.get("/settings/export/account.json").text
            let uuid = UUID().uuidString
            let cases: [(String, String)] = [
                ("", "Choose the account file to import"),
                ("BEGIN:VCARD", "The file is not JSON"),
                (#"{"format":"geojson"}"#, "The file is not a Locify account export"),
                (#"{"format":"locify-account","version":2,"records":[]}"#, "written by a newer Locify"),
                (#"{"format":"locify-account","version":1}"#, "The file has no list of records."),
                (
                    #"{"format":"locify-account","version":1,"records":[{"type":"contact","id":1,"data":{}}]}"#,
                    "Record 1 of the file is damaged"
                ),
                (
                    #"{"format":"locify-account","version":1,"records":[{"type":"spaceship","uuid":"\#(uuid)","id":1,"data":{}}]}"#,
                    "Record 1 of the file is a “spaceship”, which this server does not know."
                ),
            ]
            for (contents, message) in cases {
                let response = try await browser.upload(
                    "/settings/import/account", fileName: "account.json", contentType: "application/json",
                    contents: contents)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database): \(contents)")
                XCTAssertTrue(response.text.contains(message), "\(database): \(contents): \(response.text)")
            }
            let after = try await browser.get("/settings/export/account.json").text
            XCTAssertEqual(after, before, "\(database): nothing was written")
        }
    }

    /// A record the server refuses is left out with the reason, and so is what belongs to it; the rest
    /// comes in.
    func testARefusedRecordIsLeftOutWithWhatBelongsToIt() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register(email: "ada@example.com")
            let account = try await app.apiAccount(email: "ada@example.com")
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            _ = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Charles"}"#)
            _ = try await app.createdID(by: account, "/api/notes", #"{"contact_id":\#(ada),"body":"Met in London"}"#)
            let exported = try await browser.get("/settings/export/account.json").text
            let damaged = exported.replacingOccurrences(of: #""first_name":"Ada""#, with: #""first_name":"""#)
            XCTAssertNotEqual(damaged, exported)

            let other = WebClient(app: app)
            _ = try await other.register(name: "Mary Somerville", email: "mary@example.com")
            try await other.get("/settings")
            let imported = try await other.upload(
                "/settings/import/account", fileName: "account.json", contentType: "application/json",
                contents: damaged)
            XCTAssertEqual(imported.status, .ok, "\(database): \(imported.text)")
            XCTAssertTrue(imported.text.contains("Added 1 record"), imported.text)
            XCTAssertTrue(imported.text.contains("2 records left out"), imported.text)
            XCTAssertTrue(imported.text.contains("contact: 1 added, 1 left out"), imported.text)
            XCTAssertTrue(imported.text.contains("note “Met in London”: The contact it belongs to was left out."))
            let copy = try Self.records(try await other.get("/settings/export/account.json").text)
            XCTAssertEqual(copy.filter { $0.type == "contact" }.map { $0.data["first_name"] }, [.string("Charles")])
            XCTAssertTrue(copy.filter { $0.type == "note" }.isEmpty)
        }
    }

    /// `locify export account` and `locify import account`: the same file, the report as lines, progress
    /// to the end, and a clear error for a file that is not an export.
    func testTheCommandLineMovesAnAccountToo() async throws {
        try await forEachDatabase { app, clock, database in
            _ = try await app.makeAccount(email: "ada@example.com")
            _ = try await app.makeAccount(email: "mary@example.com", name: "Mary Somerville")
            try await Self.fill(app, email: "ada@example.com", clock: clock)
            let file = try await LocifyApp.exportAccount(in: app, email: "ada@example.com")
            let original = try Self.records(String(decoding: file, as: UTF8.self))
            let seen = NIOLockedValueBox<[Int]>([])
            let lines = try await LocifyApp.importAccount(in: app, email: "mary@example.com", file: file) {
                done, total in
                XCTAssertEqual(total, original.count)
                seen.withLockedValue { $0.append(done) }
            }
            XCTAssertTrue(lines[0].hasPrefix("Added "), "\(database): \(lines)")
            XCTAssertTrue(
                lines.contains("contact: \(original.filter { $0.type == "contact" }.count) added"), "\(lines)")
            XCTAssertFalse(lines.contains { $0.hasPrefix("Left out") }, "\(database): \(lines)")
            XCTAssertEqual(seen.withLockedValue { $0.last }, original.count, "progress goes to the end")
            let copy = try Self.records(
                String(decoding: try await LocifyApp.exportAccount(in: app, email: "mary@example.com"), as: UTF8.self))
            try Self.assertSame(copy, original, keepingUUIDs: false, "\(database): through the command line")
            do {
                _ = try await LocifyApp.importAccount(in: app, email: "mary@example.com", file: Data("{}".utf8)) {
                    _, _ in
                }
                XCTFail("\(database): a file that is not an export is refused")
            } catch let failure as CommandFailure {
                XCTAssertEqual(
                    failure.description,
                    "The file is not a Locify account export (it has no \"format\": \"locify-account\").")
            }
        }
    }

    // MARK: - Helpers

    /// Sample data, and a record of every kind the sample leaves out, a few hours apart.
    static func fill(_ app: Application, email: String, clock: TestClock) async throws {
        _ = try await LocifyApp.fillWithSampleData(in: app, email: email)
        let account = try await app.apiAccount(email: email)
        clock.advance(by: 3_600)
        let ada = try await app.createdID(
            by: account, "/api/contacts",
            #"{"first_name":"Ada","last_name":"Lovelace","is_birthdate_known":true,"birthdate_day":10,"birthdate_month":12,"birthdate_year":1815,"birthdate_add_reminder":true,"is_starred":true}"#
        )
        let byron = try await app.createdID(
            by: account, "/api/contacts",
            #"{"first_name":"George","last_name":"Byron","is_birthdate_known":true,"birthdate_is_age_based":true,"birthdate_age":36}"#
        )
        clock.advance(by: 3_600)
        let gender = try await app.createdID(by: account, "/api/genders", #"{"name":"Non-binary","type":"N"}"#)
        let update = try await app.send(
            .PUT, "/api/contacts/\(byron)", headers: account.bearer,
            json: #"{"first_name":"George","last_name":"Byron","gender_id":\#(gender),"is_birthdate_known":false}"#)
        XCTAssertEqual(update.status, .ok, update.text)
        for (method, path, json) in [
            (HTTPMethod.PUT, "/api/contacts/\(ada)/food", #"{"food_preferences":"No fish"}"#),
            (
                .PUT, "/api/contacts/\(ada)/introduction",
                #"{"met_through_contact_id":\#(byron),"general_information":"At a ball","is_date_known":true,"day":5,"month":6,"year":1833,"add_reminder":true}"#
            ),
            (.POST, "/api/contacts/\(ada)/setTags", #"{"tags":["Mathematics","Poetry"]}"#),
        ] {
            let response = try await app.send(method, path, headers: account.bearer, json: json)
            XCTAssertTrue([.ok, .created].contains(response.status), "\(path): \(response.text)")
        }
        let phoneType = try await app.createdID(
            by: account, "/api/contactfieldtypes", #"{"name":"Signal","protocol":"sgnl:"}"#)
        _ = try await app.createdID(
            by: account, "/api/contactfields",
            #"{"contact_id":\#(ada),"contact_field_type_id":\#(phoneType),"data":"+44 20 7946 0958","labels":["CELL","Lab phone"]}"#
        )
        clock.advance(by: 3_600)
        let company = try await app.createdID(
            by: account, "/api/companies", #"{"name":"Analytical Engines","website":"https://engines.example"}"#)
        _ = try await app.createdID(
            by: account, "/api/occupations",
            #"{"contact_id":\#(ada),"company_id":\#(company),"title":"Analyst","salary":300,"salary_unit":"year","currently_works_here":true,"start_date":"1842-01-01"}"#
        )
        _ = try await app.createdID(
            by: account, "/api/calls",
            #"{"contact_id":\#(ada),"called_at":"1843-05-01 18:30:00","content":"The notes","contact_called":true,"emotions":[24,1]}"#
        )
        _ = try await app.createdID(by: account, "/api/journal", #"{"title":"London","post":"Rain, then sun."}"#)
        _ = try await app.createdID(
            by: account, "/api/relationships",
            #"{"contact_is":\#(ada),"of_contact":\#(byron),"relationship_type_id":5}"#)
        _ = try await app.createdID(
            by: account, "/api/debts",
            #"{"contact_id":\#(byron),"in_debt":"yes","status":"inprogress","amount":"12.5","currency":"gbp","reason":"Tickets"}"#
        )
        _ = try await app.createdID(
            by: account, "/api/gifts",
            #"{"contact_id":\#(ada),"name":"Engine","status":"offered","amount":99.9,"currency":"GBP","date":"1843-05-01","url":"https://example.com/engine","recipient_id":\#(byron)}"#
        )
        _ = try await app.createdID(
            by: account, "/api/pets", #"{"contact_id":\#(byron),"pet_category_id":4,"name":"Boatswain"}"#)
        _ = try await app.createdID(
            by: account, "/api/lifeevents",
            #"{"contact_id":\#(ada),"life_event_type_id":10,"happened_at":"1835-07-08","name":"Married William","note":"In London"}"#
        )
        clock.advance(by: 3_600)
        let conversation = try await app.createdID(
            by: account, "/api/conversations",
            #"{"contact_id":\#(ada),"happened_at":"1843-05-01 18:30:00","contact_field_type_id":\#(phoneType)}"#)
        for (content, byMe) in [("Is the engine ready?", true), ("Nearly.", false)] {
            let response = try await app.send(
                .POST, "/api/conversations/\(conversation)/messages", headers: account.bearer,
                json: #"{"written_at":"1843-05-01","written_by_me":\#(byMe),"content":"\#(content)"}"#)
            XCTAssertEqual(response.status, .ok, response.text)
        }
        let outdoors = try await app.createdID(by: account, "/api/activitytypecategories", #"{"name":"Outdoors"}"#)
        let walk = try await app.createdID(
            by: account, "/api/activitytypes",
            #"{"name":"Walk by the lake","activity_type_category_id":\#(outdoors),"location_type":"outside"}"#)
        _ = try await app.createdID(
            by: account, "/api/activities",
            #"{"summary":"Walk","description":"Along the Thames","happened_at":"1843-04-20","activity_type_id":\#(walk),"contacts":[\#(ada),\#(byron)],"emotions":[24]}"#
        )
        let places = try await app.send(.GET, "/api/places", headers: account.bearer)
        let placeID = try XCTUnwrap(((try places.json()["data"] as? [[String: Any]])?.first)?["id"] as? Int)
        let rated = try await app.send(
            .PUT, "/api/places/\(placeID)", headers: account.bearer, json: #"{"rating":4}"#)
        XCTAssertEqual(rated.status, .ok, rated.text)
        _ = try await app.createdID(
            by: account, "/api/places/\(placeID)/comments", #"{"body":"Ask for the window table.\nCash only."}"#)
        // Two pictures, the second made the cover: the order comes back too.
        var placePhotoIDs: [Int] = []
        for bytes in [TestImages.png(width: 300, height: 200, seed: 3), TestImages.webp] {
            let (body, type) = TestImages.multipart(bytes, filename: "terrace.png")
            var headers = account.bearer
            headers.replaceOrAdd(name: .contentType, value: type)
            let uploaded = try await app.send(.POST, "/api/places/\(placeID)/photos", headers: headers, body: body)
            XCTAssertEqual(uploaded.status, .created, uploaded.text)
            placePhotoIDs.append(try uploaded.decoded(DataEnvelope<PlacePhotoResource>.self).data.id)
        }
        let cover = try await app.send(
            .PUT, "/api/placephotos/\(placePhotoIDs[1])", headers: account.bearer, json: #"{"position":1}"#)
        XCTAssertEqual(cover.status, .ok, cover.text)
        let photos = try await app.send(.GET, "/api/photos", headers: account.bearer)
        let picture = try XCTUnwrap(((try photos.json()["data"] as? [[String: Any]])?.first)?["dataUrl"] as? String)
        let photoID = try await app.createdID(
            by: account, "/api/photos",
            #"{"contact_id":\#(byron),"data":"\#(picture.split(separator: ",").last ?? "")"}"#)
        let avatar = try await app.send(
            .PUT, "/api/contacts/\(byron)/avatar", headers: account.bearer,
            json: #"{"source":"photo","photo_id":\#(photoID)}"#)
        XCTAssertEqual(avatar.status, .ok, avatar.text)
        _ = try await DocumentService(database: app.db, ownerID: account.id, dependencies: app.dependencies).create(
            contactID: ada, bytes: Array("Notes on the engine".utf8), filename: "notes.txt", mimeType: "text/plain")
        let archived = try await app.send(
            .PUT, "/api/contacts/\(byron)", headers: account.bearer,
            json: #"{"first_name":"George","last_name":"Byron","is_birthdate_known":false,"is_archived":true}"#)
        XCTAssertEqual(archived.status, .ok, archived.text)
        let me = try await app.send(.POST, "/api/me/contact", headers: account.bearer, json: #"{"contact_id":\#(ada)}"#)
        XCTAssertTrue([.ok, .created].contains(me.status), me.text)
    }

    static func day(_ date: Date) -> String { date.formatted(.iso8601.year().month().day()) }

    struct Record {
        let type: String
        let uuid: String
        let id: Int
        let data: [String: JSONValue]
    }

    static func records(_ text: String) throws -> [Record] {
        let document = try JSONValue(parsing: Array(text.utf8))
        guard case .array(let entries) = document.object?["records"] ?? .null else {
            throw XCTSkip("not an archive: \(text.prefix(200))")
        }
        return entries.compactMap(\.object).map {
            guard case .string(let type) = $0["type"] ?? .null, case .string(let uuid) = $0["uuid"] ?? .null,
                case .integer(let id) = $0["id"] ?? .null
            else { return Record(type: "?", uuid: "?", id: 0, data: [:]) }
            return Record(type: type, uuid: uuid, id: id, data: $0["data"]?.object ?? [:])
        }
    }

    /// The two lists hold the same records of each kind: the same values, each id read as the place its
    /// record has among those of its kind (records of a kind made in the file's order keep it), a server's
    /// own links left out (and the uuids, and what follows from them, unless `keepingUUIDs`).
    static func assertSame(
        _ actual: [Record], _ expected: [Record], keepingUUIDs: Bool, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let left = Normalizer(actual, keepingUUIDs: keepingUUIDs)
        let right = Normalizer(expected, keepingUUIDs: keepingUUIDs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func normalized(_ records: [Record], _ normalizer: Normalizer) throws -> [String: [String]] {
            var byType: [String: [String]] = [:]
            for record in records {
                let value = normalizer.normalized(.object(record.data), type: record.type)
                byType[record.type, default: []].append(String(decoding: try encoder.encode(value), as: UTF8.self))
            }
            return byType.mapValues { $0.sorted() }
        }
        let mine = try normalized(actual, left)
        let theirs = try normalized(expected, right)
        XCTAssertEqual(
            mine.mapValues(\.count), theirs.mapValues(\.count), "\(label): as many of each kind", file: file, line: line
        )
        for (type, records) in theirs.sorted(by: { $0.key < $1.key }) {
            let missing = records.filter { !(mine[type] ?? []).contains($0) }
            let extra = (mine[type] ?? []).filter { !records.contains($0) }
            if !missing.isEmpty || !extra.isEmpty {
                XCTFail(
                    "\(label): \(type) differs. Expected\n\(missing.joined(separator: "\n"))\nbut found\n"
                        + extra.joined(separator: "\n"), file: file, line: line)
            }
        }
    }

    private struct Normalizer {
        let ordinals: [String: [Int: Int]]
        let keepingUUIDs: Bool

        init(_ records: [Record], keepingUUIDs: Bool) {
            var ordinals: [String: [Int: Int]] = [:]
            for record in records { ordinals[record.type, default: [:]][record.id] = ordinals[record.type]?.count ?? 0 }
            self.ordinals = ordinals
            self.keepingUUIDs = keepingUUIDs
        }

        /// The feed's type of a resource's `object`.
        static let types: [String: String] = [
            "activityType": "activitytype", "activityTypeCategory": "activitytypecategory",
        ]
        static let defaults: Set<String> = [
            "gender", "contactfieldtype", "category", "activitytype", "activitytypecategory", "relationshiptype",
            "lifeeventtype", "lifeeventcategory",
        ]
        /// Objects that name their kind by the key they are under.
        static let nested: [String: String] = [
            "category": "category", "relationship": "relationship", "conversation": "conversation",
        ]
        static let references: [String: String] = [
            "contact_id": "contact", "tag_id": "tag", "category_id": "category", "of_contact": "contact",
            "contact_is": "contact", "place_id": "place",
        ]

        func normalized(_ value: JSONValue, type: String?) -> JSONValue {
            switch value {
            case .object(let members):
                let objectType: String? =
                    if case .string(let object) = members["object"] ?? .null { Self.types[object] ?? object } else {
                        type
                    }
                var result: [String: JSONValue] = [:]
                for (key, member) in members {
                    // The account's own defaults (a gender or a field kind of the same name) stand in for the
                    // archive's, with their own times.
                    if ["created_at", "updated_at"].contains(key), let objectType, Self.defaults.contains(objectType) {
                        continue
                    }
                    // A field's labels are parts of it, made anew with it.
                    if objectType == "contactfieldlabel", ["id", "created_at", "updated_at"].contains(key) { continue }
                    switch key {
                    // Worked out from today, which is another day on another server.
                    case "next_expected_date": continue
                    // A comment's author is the account that imports it, as `account` is.
                    case "hash_id", "account", "author", "link",
                        "url" where Self.isLink(member):
                        continue
                    case "uuid", "new_filename",
                        "default_avatar_color" where !keepingUUIDs:
                        continue
                    case "avatar": result[key] = .string(member.object?["source"].map { "\($0)" } ?? "")
                    case "id":
                        if let objectType, let ordinal = ordinal(objectType, member) {
                            result[key] = .string("\(objectType)#\(ordinal)")
                        } else if objectType == "message" {
                            continue
                        } else {
                            result[key] = member
                        }
                    default:
                        if let referenced = Self.references[key], let ordinal = ordinal(referenced, member) {
                            result[key] = .string("\(referenced)#\(ordinal)")
                        } else {
                            result[key] = normalized(member, type: Self.nested[key])
                        }
                    }
                }
                return .object(result)
            case .array(let items): return .array(items.map { normalized($0, type: nil) })
            case .string(let text) where text.hasPrefix("http://127.0.0.1") || text.hasPrefix("http://localhost"):
                return .string("<link>")
            default: return value
            }
        }

        private func ordinal(_ type: String, _ value: JSONValue) -> Int? {
            guard case .integer(let id) = value else { return nil }
            return ordinals[type]?[id]
        }

        private static func isLink(_ value: JSONValue) -> Bool {
            if case .string(let text) = value {
                return text.hasPrefix("http://127.0.0.1") || text.hasPrefix("http://localhost")
            }
            return false
        }
    }
}
