import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class ContactsAPITests: XCTestCase {
    func testCreatedContactMatchesMonicasShapeKeyForKey() async throws {
        try await forEachDatabase { app, _, database in
            // Given an account
            let account = try await app.makeAccount()
            // When a client creates a contact with every field Locify models
            let response = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json: """
                    {"first_name":"Zoë","last_name":"Müller","nickname":"Zo","description":"Met in Bern",
                     "email":" Zoe@Example.com ","gender_id":2,"is_birthdate_known":true,"birthdate_day":29,
                     "birthdate_month":2,"birthdate_year":1992,"is_starred":"1","unknown_key":"ignored"}
                    """)
            // Then the whole response is Monica's full contact, keys in Monica's order
            XCTAssertEqual(response.status, .created, "\(database)")
            let created = try response.decoded(DataEnvelope<ContactResource>.self).data
            let (id, uuid) = (created.id, created.uuid)
            let contact = try await app.storedContact(id)
            let hashID = HashID.encode(id)
            let expected = """
                {"data":{"id":\(id),"uuid":"\(uuid)","object":"contact","hash_id":"\(hashID)","first_name":"Zoë","last_name":"Müller",\
                "nickname":"Zo","complete_name":"Zoë Müller","initials":"ZM","description":"Met in Bern","gender":"Woman",\
                "gender_type":"F","is_starred":true,"is_partial":false,"is_active":true,"is_dead":false,"is_me":false,\
                "last_called":null,"last_activity_together":null,"stay_in_touch_frequency":null,"stay_in_touch_trigger_date":null,\
                "information":{"relationships":{"love":{"total":0,"contacts":[]},"family":{"total":0,"contacts":[]},\
                "friend":{"total":0,"contacts":[]},"work":{"total":0,"contacts":[]}},"dates":{"birthdate":{"is_age_based":false,\
                "is_year_unknown":false,"date":"1992-02-29T00:00:00Z"},"deceased_date":{"is_age_based":null,"is_year_unknown":null,\
                "date":null}},"career":{"job":null,"company":null},"avatar":{"url":"\(try XCTUnwrap(created.information.avatar.url))","source":"default",\
                "default_avatar_color":"\(try XCTUnwrap(contact?.defaultAvatarColor))"},"food_preferences":null,"how_you_met":\
                {"general_information":null,"first_met_date":{"is_age_based":null,"is_year_unknown":null,"date":null},\
                "first_met_through_contact":null}},"addresses":[],"tags":[],"statistics":{"number_of_calls":0,"number_of_notes":0,\
                "number_of_activities":0,"number_of_reminders":0,"number_of_tasks":0,"number_of_gifts":0,"number_of_debts":0},\
                "url":"http://127.0.0.1:8080/api/contacts/\(id)","account":{"id":\(account.id)},"created_at":"2024-05-04T10:06:05Z",\
                "updated_at":"2024-05-04T10:06:05Z"}}
                """
            XCTAssertEqual(response.text, expected, "\(database)")
            // The avatar URL is this server's, names the initials' version and is signed for about a week.
            let avatarURL = try XCTUnwrap(created.information.avatar.url)
            XCTAssertTrue(
                avatarURL.hasPrefix("http://127.0.0.1:8080/store/avatars/\(id)?v=i") && avatarURL.contains("&expires=")
                    && avatarURL.contains("&signature="), avatarURL)
        }
    }

    func testShowUpdateAndDelete() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let created = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json:
                    #"{"first_name":"Ada","last_name":"Byron","email":"ada@byron.org","birthdate_day":10,"birthdate_month":12}"#
            )
            let id = try created.decoded(DataEnvelope<ContactResource>.self).data.id

            let shown = try await app.send(.GET, "/api/contacts/\(id)", headers: account.bearer)
            XCTAssertEqual(shown.status, .ok)
            XCTAssertEqual(try shown.decoded(DataEnvelope<ContactResource>.self).data.lastName, "Byron")
            // Monica's contact shape has no email key: the address becomes an Email contact field.
            let emails = try await app.send(.GET, "/api/contacts/\(id)/contactfields", headers: account.bearer)
            let emailFields = try emails.decoded(PageResource<ContactFieldResource>.self).data
            XCTAssertEqual(emailFields.map(\.content), ["ada@byron.org"])
            XCTAssertEqual(emailFields.map(\.contactFieldType.type), ["email"])

            // An update that sends one key keeps the others (the iOS client sends partial bodies).
            clock.advance(by: 3600)
            let updated = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer, json: #"{"nickname":"Countess"}"#)
            XCTAssertEqual(updated.status, .ok, "\(database): \(updated.text)")
            let data = try updated.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(data.nickname, "Countess")
            XCTAssertEqual(data.lastName, "Byron")
            XCTAssertEqual(data.updatedAt, "2024-05-04T11:06:05Z")
            XCTAssertEqual(data.createdAt, "2024-05-04T10:06:05Z")
            XCTAssertEqual(data.information.dates.birthdate.isYearUnknown, true)
            XCTAssertEqual(data.information.dates.birthdate.date, "2024-12-10T00:00:00Z")

            // Explicit null clears a value; e-mails are contact fields, which `email` only ever adds to.
            let cleared = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer,
                json: #"{"email":null,"is_birthdate_known":false}"#)
            let clearedData = try cleared.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertNil(clearedData.description)
            XCTAssertEqual(clearedData.information.dates.birthdate, .absent)
            XCTAssertFalse(cleared.text.contains(#""email""#), "email is not a Monica key")
            let stored = try await app.storedContact(id)
            XCTAssertNil(stored?.fields.birthdate)
            _ = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer, json: #"{"email":" ADA@byron.org "}"#)
            _ = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer, json: #"{"email":"countess@byron.org"}"#)
            let kept = try await app.send(.GET, "/api/contacts/\(id)/contactfields", headers: account.bearer)
            XCTAssertEqual(
                try kept.decoded(PageResource<ContactFieldResource>.self).data.map(\.content),
                ["ada@byron.org", "countess@byron.org"], "\(database): a known address is not added twice")

            let deleted = try await app.send(.DELETE, "/api/contacts/\(id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(id)}"#)
            let gone = try await app.send(.GET, "/api/contacts/\(id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
            XCTAssertEqual(gone.text, #"{"error":{"message":"The resource has not been found","error_code":31}}"#)
        }
    }

    func testInvalidInputIsRejectedWithEveryProblemAndStoresNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let response = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json: """
                    {"first_name":"  ","email":"not-an-email","gender_id":"seven","birthdate_day":31,"birthdate_month":4,
                     "last_name":"\(String(repeating: "x", count: 256))"}
                    """)
            XCTAssertEqual(response.status, .unprocessableEntity, "\(database)")
            let error = try response.decoded(ErrorEnvelope.self).error
            XCTAssertEqual(error.errorCode, 32)
            XCTAssertEqual(
                error.message,
                .list([
                    "Gender must be a whole number.",
                    "First name is required.",
                    "Last name must be at most 255 characters.",
                    "Email must be an address like name@example.com.",
                    "That day does not exist in that month.",
                ]))
            let count = try await app.count(ContactsTable.self)
            XCTAssertEqual(count, 0)

            let empty = try await app.send(.POST, "/api/contacts", headers: account.bearer)
            XCTAssertEqual(empty.text, #"{"error":{"message":["First name is required."],"error_code":32}}"#)

            let malformed = try await app.send(.POST, "/api/contacts", headers: account.bearer, json: "{not json")
            XCTAssertEqual(malformed.status, .badRequest)
            XCTAssertEqual(malformed.errorCode, 37)
        }
    }

    func testListPaginatesSortsAndSearches() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let people = [
                #"{"first_name":"Jürgen","last_name":"Klopp","email":"kloppo@example.de"}"#,
                #"{"first_name":"Amélie","last_name":"Poulain","nickname":"Ami"}"#,
                #"{"first_name":"Bob","last_name":"Marley","email":"bob@reggae.example"}"#,
                #"{"first_name":"Archie","last_name":"Vault","is_archived":true}"#,
            ]
            for person in people {
                clock.advance(by: 60)
                let created = try await app.send(.POST, "/api/contacts", headers: account.bearer, json: person)
                XCTAssertEqual(created.status, .created)
            }

            let firstPage = try await app.send(.GET, "/api/contacts?limit=2&sort=-created_at", headers: account.bearer)
            XCTAssertEqual(firstPage.status, .ok)
            let body = try firstPage.decoded(PageResource<ContactResource>.self)
            XCTAssertEqual(
                body.data.map(\.firstName), ["Bob", "Amélie"], "\(database): newest first, archived left out")
            XCTAssertEqual(body.meta.total, 3)
            XCTAssertEqual(body.meta.lastPage, 2)
            XCTAssertEqual(body.meta.from, 1)
            XCTAssertEqual(body.meta.to, 2)
            XCTAssertEqual(body.meta.perPage, 2)
            XCTAssertEqual(body.meta.path, "http://127.0.0.1:8080/api/contacts")
            XCTAssertEqual(body.links.next, "http://127.0.0.1:8080/api/contacts?limit=2&sort=-created_at&page=2")
            XCTAssertNil(body.links.prev)

            let emptyPage = try await app.send(.GET, "/api/contacts?page=9", headers: account.bearer)
            let emptyResource = try emptyPage.decoded(PageResource<ContactResource>.self)
            XCTAssertNil(emptyResource.meta.from)
            XCTAssertNil(emptyResource.meta.to)
            XCTAssertEqual(emptyResource.links.first, "http://127.0.0.1:8080/api/contacts?page=1")
            XCTAssertEqual(emptyResource.meta.links.map(\.url).last, .some(nil), "no next page past the end")
            XCTAssertEqual(
                emptyResource.links.prev, "http://127.0.0.1:8080/api/contacts?page=8",
                "the page before the one asked for, as Laravel's paginator answers")

            // The search is kept in page links, encoded once for all of them.
            let searched = try await app.send(.GET, "/api/contacts?query=a%20b%C3%BC&limit=1", headers: account.bearer)
            let searchedLinks = try searched.decoded(PageResource<ContactResource>.self).links
            XCTAssertEqual(searchedLinks.first, "http://127.0.0.1:8080/api/contacts?limit=1&query=a%20b%C3%BC&page=1")

            for (query, expected) in [("jurgen", ["Jürgen"]), ("AMI", ["Amélie"]), ("reggae", ["Bob"]), ("zzz", [])] {
                let found = try await app.send(.GET, "/api/contacts?query=\(query)", headers: account.bearer)
                let foundNames = try found.decoded(PageResource<ContactResource>.self).data.map(\.firstName)
                XCTAssertEqual(foundNames, expected, "\(database): query \(query)")
            }

            let tooBig = try await app.send(.GET, "/api/contacts?limit=101", headers: account.bearer)
            XCTAssertEqual(tooBig.status, .badRequest)
            XCTAssertEqual(tooBig.errorCode, 30)
            let badSort = try await app.send(.GET, "/api/contacts?sort=first_name", headers: account.bearer)
            XCTAssertEqual(badSort.status, .badRequest)
            XCTAssertEqual(badSort.errorCode, 39)
        }
    }

    func testAnotherAccountsContactIsNotFound() async throws {
        try await forEachDatabase { app, _, _ in
            let owner = try await app.makeAccount()
            let stranger = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let created = try await app.send(
                .POST, "/api/contacts", headers: owner.bearer, json: #"{"first_name":"Secret"}"#)
            let id = try created.decoded(DataEnvelope<ContactResource>.self).data.id
            for method in [HTTPMethod.GET, .PUT, .DELETE] {
                let response = try await app.send(
                    method, "/api/contacts/\(id)", headers: stranger.bearer,
                    json: method == .PUT ? #"{"first_name":"Mine"}"# : nil)
                XCTAssertEqual(response.status, .notFound, "\(method)")
                XCTAssertEqual(response.errorCode, 31)
            }
            let list = try await app.send(.GET, "/api/contacts", headers: stranger.bearer)
            XCTAssertEqual(try list.decoded(PageResource<ContactResource>.self).data.count, 0)
            let stored = try await app.storedContact(id)
            XCTAssertEqual(stored?.fields.firstName, "Secret")
        }
    }

    func testTheEdgeOfTheInputIsWhatTheAPIDescriptionSays() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            // page and limit: whole numbers from 1; an empty sort is the default order.
            for query in ["page=0", "page=-2", "page=two", "limit=0", "page=1000000001"] {
                let response = try await app.send(.GET, "/api/contacts?\(query)", headers: account.bearer)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(query)")
                XCTAssertEqual(response.errorCode, 32)
            }
            let emptySort = try await app.send(.GET, "/api/contacts?sort=", headers: account.bearer)
            XCTAssertEqual(emptySort.status, .ok)

            // Whole numbers may come as 12.0; numbers past 15 digits are refused, like any unreadable value.
            let whole = try await app.send(
                .POST, "/api/contacts", headers: account.bearer, json: #"{"first_name":"Ada","gender_id":2.0}"#)
            XCTAssertEqual(whole.status, .created, whole.text)
            XCTAssertEqual(try whole.decoded(DataEnvelope<ContactResource>.self).data.firstName, "Ada")
            // A name is text, as Monica's `string` rule says: a number is refused, not stored as its digits.
            let numeric = try await app.send(
                .POST, "/api/contacts", headers: account.bearer, json: #"{"first_name":12,"nickname":3.5}"#)
            XCTAssertEqual(
                numeric.text,
                #"{"error":{"message":["First name must be text.","Nickname must be text."],"error_code":32}}"#)
            let renamed = try await app.send(
                .PUT, "/api/contacts/\(try whole.decoded(DataEnvelope<ContactResource>.self).data.id)",
                headers: account.bearer, json: #"{"last_name":1815}"#)
            XCTAssertEqual(renamed.status, .unprocessableEntity, renamed.text)
            let huge = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json: #"{"first_name":"Ada","gender_id":1000000000000000}"#)
            XCTAssertEqual(huge.text, #"{"error":{"message":["Gender must be a whole number."],"error_code":32}}"#)

            // A malformed body is code 37 and documented as a 400; contacts are read from JSON only.
            let malformed = try await app.send(.POST, "/api/contacts", headers: account.bearer, json: "[1, 2")
            XCTAssertEqual(malformed.status, .badRequest)
            XCTAssertEqual(malformed.text, #"{"error":{"message":"Problem parsing JSON","error_code":37}}"#)
            var form: XCTHTTPResponse?
            try await app.test(
                .POST, "/api/contacts",
                headers: account.bearer.merging(["Content-Type": "application/x-www-form-urlencoded"]),
                body: ByteBuffer(string: "first_name=Ada")
            ) { response async in form = response }
            XCTAssertEqual(form?.status, .badRequest)
            let contacts = try await app.count(ContactsTable.self)
            XCTAssertEqual(contacts, 1, "only Ada was stored")

            // OAuth forms are read pair by pair: keys the form decoder would take for arrays are ignored.
            var login: XCTHTTPResponse?
            try await app.test(
                .POST, "/oauth/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "a%5Bb=1&a%5Bb=2&email=ada%40example.com&password=correct+horse&email=other")
            ) { response async in login = response }
            XCTAssertEqual(login?.status, .ok, login?.body.string ?? "")
            let notJSON = try await app.send(.POST, "/oauth/login", json: "nonsense")
            XCTAssertEqual(notJSON.status, .badRequest)
        }
    }
}
