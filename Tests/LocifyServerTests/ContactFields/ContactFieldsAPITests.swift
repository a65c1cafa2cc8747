import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/contactfieldtypes`, `/api/contactfields` and a contact's fields.
final class ContactFieldsAPITests: XCTestCase {
    private func types(_ app: Application, _ account: TestAccount) async throws -> [ContactFieldTypeResource] {
        try await app.send(.GET, "/api/contactfieldtypes", headers: account.bearer)
            .decoded(PageResource<ContactFieldTypeResource>.self).data
    }

    func testMonicasKindsOfFieldAndAFieldsShapeAndLabels() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let listed = try await app.send(.GET, "/api/contactfieldtypes", headers: account.bearer)
            XCTAssertEqual(
                JSONKeyOrder.keys(of: listed.text, at: ["data", "0"]),
                [
                    "id", "uuid", "object", "name", "fontawesome_icon", "protocol", "delible", "type", "account",
                    "created_at", "updated_at",
                ], "\(database)")
            let kinds = try listed.decoded(PageResource<ContactFieldTypeResource>.self).data
            XCTAssertEqual(
                kinds.map(\.name), ["Email", "Phone", "Facebook", "Twitter", "Whatsapp", "Telegram", "LinkedIn"])
            XCTAssertEqual(
                kinds.map(\.protocol),
                [
                    "mailto:", "tel:", "https://facebook.com/", "https://twitter.com/", "https://wa.me/", "telegram:",
                    "https://linkedin.com/in/",
                ])
            XCTAssertEqual(kinds.map(\.delible), [false, false, true, true, true, true, true])
            XCTAssertEqual(kinds.prefix(2).map(\.type), ["email", "phone"])
            let phone = kinds[1]

            clock.advance(by: 60)
            let response = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(phone.id), "data": " +44 20 7946 0958 ", "labels": ["CELL", "Work", "Lab phone", "cell", " "]}"#
            )
            XCTAssertEqual(response.status, .created, response.text)
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data"]),
                [
                    "id", "uuid", "object", "content", "contact_field_type", "labels", "account", "contact",
                    "created_at", "updated_at",
                ])
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data", "labels", "0"]),
                ["id", "object", "type", "label", "account", "created_at", "updated_at"])
            let field = try response.decoded(DataEnvelope<ContactFieldResource>.self).data
            XCTAssertEqual(field.object, "contactfield")
            XCTAssertEqual(field.content, "+44 20 7946 0958", "as typed, trimmed")
            XCTAssertEqual(field.contactFieldType.name, "Phone")
            XCTAssertEqual(field.labels.map(\.type), ["cell", "work", "Lab phone"])
            XCTAssertEqual(field.labels.map(\.label), ["Mobile", "Work", "Lab phone"])
            XCTAssertEqual(field.contact.firstName, "Ada")

            // Per contact, also through the singular route some integrations call, and POST there.
            let viaContact = try await app.send(
                .POST, "/api/contacts/\(ada.id)/contactfields", headers: account.bearer,
                json: #"{"contact_field_type_id": \#(kinds[0].id), "data": "ada@example.com"}"#)
            XCTAssertEqual(viaContact.status, .created, viaContact.text)
            for path in ["/api/contacts/\(ada.id)/contactfields", "/api/contact/\(ada.id)/contactfields"] {
                let list = try await app.send(.GET, path, headers: account.bearer)
                XCTAssertEqual(
                    try list.decoded(PageResource<ContactFieldResource>.self).data.map(\.content),
                    ["+44 20 7946 0958", "ada@example.com"], path)
            }

            // An update sends the keys again; labels sent replace the set, labels left out stay.
            let updated = try await app.send(
                .PUT, "/api/contactfields/\(field.id)", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(phone.id), "data": "+44 20 7946 0000"}"#)
            let afterUpdate = try updated.decoded(DataEnvelope<ContactFieldResource>.self).data
            XCTAssertEqual(afterUpdate.content, "+44 20 7946 0000")
            XCTAssertEqual(afterUpdate.labels.map(\.type), ["cell", "work", "Lab phone"])
            let relabelled = try await app.send(
                .PUT, "/api/contactfields/\(field.id)", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(phone.id), "data": "+44 20 7946 0000", "labels": ["home"]}"#
            )
            XCTAssertEqual(
                try relabelled.decoded(DataEnvelope<ContactFieldResource>.self).data.labels.map(\.label), ["Home"])

            // Kinds: one of the owner's own is added, renamed and deleted with its fields; E-mail stays.
            let made = try await app.send(
                .POST, "/api/contactfieldtypes", headers: account.bearer,
                json:
                    #"{"name": "Mastodon", "protocol": "https://", "fontawesome_icon": "fa fa-mastodon", "delible": 0}"#
            )
            XCTAssertEqual(made.status, .created)
            let mastodon = try made.decoded(DataEnvelope<ContactFieldTypeResource>.self).data
            XCTAssertTrue(mastodon.delible, "delible is Locify's to decide")
            let renamed = try await app.send(
                .PUT, "/api/contactfieldtypes/\(mastodon.id)", headers: account.bearer, json: #"{"name": "Fediverse"}"#)
            let afterRename = try renamed.decoded(DataEnvelope<ContactFieldTypeResource>.self).data
            XCTAssertEqual(afterRename.name, "Fediverse")
            XCTAssertEqual(afterRename.protocol, "https://", "left out, kept")
            let social = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(mastodon.id), "data": "@ada@example.social"}"#
            )
            let socialField = try social.decoded(DataEnvelope<ContactFieldResource>.self).data
            let deletedKind = try await app.send(
                .DELETE, "/api/contactfieldtypes/\(mastodon.id)", headers: account.bearer)
            XCTAssertEqual(deletedKind.status, .ok)
            let gone = try await app.send(.GET, "/api/contactfields/\(socialField.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound, "its fields go with it")
            let kept = try await app.send(.DELETE, "/api/contactfieldtypes/\(kinds[0].id)", headers: account.bearer)
            XCTAssertEqual(kept.status, .conflict)
            let deleted = try await app.send(.DELETE, "/api/contactfields/\(field.id)", headers: account.bearer)
            XCTAssertEqual(try deleted.decoded(DeletedResource.self), DeletedResource(id: field.id))
            let left = try await types(app, account)
            XCTAssertEqual(left.count, 7)
        }
    }

    func testBadFieldsAreRefusedWholeAndArchivedContactsKeepTheirs() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let refused = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer, json: #"{"data": " ", "labels": "home"}"#)
            XCTAssertEqual(refused.status, .unprocessableEntity, "\(database)")
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list([
                    "Labels must be a list of words (home, work, cell… or your own).",
                    "Choose the contact this field belongs to.", "Choose the kind of field (contact_field_type_id).",
                    "Type the value.",
                ]))
            let phone = try await types(app, account)[1]
            let long = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(phone.id), "data": "\#(String(repeating: "1", count: 256))"}"#
            )
            XCTAssertEqual(
                try long.decoded(ErrorEnvelope.self).error.message, .list(["Value must be at most 255 characters."]))
            let longLabel = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(phone.id), "data": "1", "labels": ["\#(String(repeating: "x", count: 256))"]}"#
            )
            XCTAssertEqual(
                try longLabel.decoded(ErrorEnvelope.self).error.message,
                .list(["Each label must be at most 255 characters."]))
            let unknownKind = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "contact_field_type_id": 999999, "data": "x"}"#)
            XCTAssertEqual(unknownKind.status, .notFound)
            let archived = try await app.makeContact(for: account, ContactDraft(firstName: "Old", isArchived: true))
            let onArchived = try await app.send(
                .POST, "/api/contacts/\(archived.id)/contactfields", headers: account.bearer,
                json: #"{"contact_field_type_id": \#(phone.id), "data": "123"}"#)
            XCTAssertEqual(onArchived.status, .conflict)
            XCTAssertEqual(
                try onArchived.decoded(ErrorEnvelope.self).error.message,
                .list(["Archived contact can’t be edited, please unarchive it first."]))
            let none = try await app.send(.GET, "/api/contacts/\(ada.id)/contactfields", headers: account.bearer)
            XCTAssertEqual(try none.decoded(PageResource<ContactFieldResource>.self).meta.total, 0)
        }
    }

    func testAnotherAccountsFieldsKindsAndContactsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            let phone = try await types(app, owner)[1]
            let field = try await app.send(
                .POST, "/api/contactfields", headers: owner.bearer,
                json: #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(phone.id), "data": "123"}"#
            ).decoded(DataEnvelope<ContactFieldResource>.self).data
            let other = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let eves = try await app.makeContact(for: other, ContactDraft(firstName: "Mallory"))
            let evesPhone = try await types(app, other)[1]
            XCTAssertNotEqual(evesPhone.id, phone.id, "each account has its own kinds")
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/contactfields/\(field.id)", nil),
                (
                    .PUT, "/api/contactfields/\(field.id)",
                    #"{"contact_id": \#(eves.id), "contact_field_type_id": \#(evesPhone.id), "data": "999"}"#
                ),
                (.DELETE, "/api/contactfields/\(field.id)", nil),
                (.GET, "/api/contacts/\(ada.id)/contactfields", nil),
                (.GET, "/api/contact/\(ada.id)/contactfields", nil),
                (
                    .POST, "/api/contacts/\(ada.id)/contactfields",
                    #"{"contact_field_type_id": \#(evesPhone.id), "data": "1"}"#
                ),
                (
                    .POST, "/api/contactfields",
                    #"{"contact_id": \#(eves.id), "contact_field_type_id": \#(phone.id), "data": "1"}"#
                ),
                (.GET, "/api/contactfieldtypes/\(phone.id)", nil),
                (.PUT, "/api/contactfieldtypes/\(phone.id)", #"{"name": "Mine"}"#),
                (.DELETE, "/api/contactfieldtypes/\(phone.id)", nil),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path)")
            }
            let kept = try await app.send(.GET, "/api/contactfields/\(field.id)", headers: owner.bearer)
                .decoded(DataEnvelope<ContactFieldResource>.self).data
            XCTAssertEqual(kept.content, "123")
            XCTAssertEqual(kept.contact.id, ada.id)
        }
    }

    private func contactIDs(_ app: Application, _ account: TestAccount, searching query: String) async throws -> [Int] {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        return try await app.send(.GET, "/api/contacts?query=\(encoded)", headers: account.bearer)
            .decoded(PageResource<ContactResource>.self).data.map(\.id)
    }

    func testSearchFindsEMailsAndPhoneNumbersHoweverTheyAreSpaced() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", email: "ada@example.com"))
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let kinds = try await types(app, account)
            let field = try await app.send(
                .POST, "/api/contacts/\(grace.id)/contactfields", headers: account.bearer,
                json: #"{"contact_field_type_id": \#(kinds[1].id), "data": "+44 (0)20 7946-0000"}"#
            ).decoded(DataEnvelope<ContactFieldResource>.self).data
            for query in ["4402079460000", "020 7946 0000", "7946-0000", "(0)20"] {
                let found = try await contactIDs(app, account, searching: query)
                XCTAssertEqual(found, [grace.id], "\(database): “\(query)”")
            }
            let byEmail = try await contactIDs(app, account, searching: "ADA@example")
            XCTAssertEqual(byEmail, [ada.id])
            // The key follows the field when it moves to another contact, and when it goes.
            _ = try await app.send(
                .PUT, "/api/contactfields/\(field.id)", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "contact_field_type_id": \#(kinds[1].id), "data": "+1 555 0100"}"#)
            let moved = try await contactIDs(app, account, searching: "1 555 0100")
            XCTAssertEqual(moved, [ada.id])
            let old = try await contactIDs(app, account, searching: "7946 0000")
            XCTAssertEqual(old, [])
            _ = try await app.send(.DELETE, "/api/contactfields/\(field.id)", headers: account.bearer)
            let gone = try await contactIDs(app, account, searching: "15550100")
            XCTAssertEqual(gone, [])
            // Deleting a kind deletes its fields from search too.
            let telegram = kinds[5]
            _ = try await app.send(
                .POST, "/api/contacts/\(grace.id)/contactfields", headers: account.bearer,
                json: #"{"contact_field_type_id": \#(telegram.id), "data": "amazinggrace"}"#)
            let byHandle = try await contactIDs(app, account, searching: "amazing")
            XCTAssertEqual(byHandle, [grace.id])
            _ = try await app.send(.DELETE, "/api/contactfieldtypes/\(telegram.id)", headers: account.bearer)
            let afterKind = try await contactIDs(app, account, searching: "amazing")
            XCTAssertEqual(afterKind, [])
            // E-mail and Phone keep their type, and no other kind takes it.
            let retyped = try await app.send(
                .PUT, "/api/contactfieldtypes/\(kinds[0].id)", headers: account.bearer, json: #"{"type": null}"#)
            XCTAssertEqual(retyped.status, .conflict)
            let impostor = try await app.send(
                .POST, "/api/contactfieldtypes", headers: account.bearer, json: #"{"name": "Mail", "type": "email"}"#)
            XCTAssertEqual(impostor.status, .conflict)
        }
    }

    func testTheMigrationMovesEachContactsEMailToAnEmailField() async throws {
        try await forEachDatabase { app, _, database in
            let first = try await app.makeAccount()
            let second = try await app.makeAccount(email: "grace@example.com", name: "Grace Hopper")
            let ada = try await app.makeContact(for: first, ContactDraft(firstName: "Ada", email: "ada@example.com"))
            let phone = try await types(app, first)[1]
            _ = try await app.send(
                .POST, "/api/contacts/\(ada.id)/contactfields", headers: first.bearer,
                json: #"{"contact_field_type_id": \#(phone.id), "data": "020 7946 0000"}"#)
            let alan = try await app.makeContact(
                for: second, ContactDraft(firstName: "Alan", email: "alan@example.com"))
            let sam = try await app.makeContact(for: second, ContactDraft(firstName: "Sam"))
            // Back to the old shape: no work columns yet (a later migration), the e-mail on the contact,
            // the search key without the fields, and an account that never had kinds of field.
            try await AddContactWork().revert(on: app.db)
            try await MoveContactEmailsToFields().revert(on: app.db)
            let stored = try await app.db.plainRows(
                #"SELECT "email" FROM "contacts" ORDER BY "id""#, columns: ["email"])
            XCTAssertEqual(
                try stored.map { try $0.text(0) }, ["ada@example.com", "alan@example.com", nil], "\(database)")
            let sql = try app.db.sqlDatabase()
            try await sql.raw(
                #"UPDATE "contacts" SET "search_key" = 'ada', "gravatar_hash" = NULL WHERE "id" = \#(literal: ada.id)"#
            ).run()
            try await sql.raw(#"DELETE FROM "contact_field_types" WHERE "user_id" = \#(literal: second.id)"#).run()
            // The first account's E-mail kind was retyped, as the API allowed before kinds kept their type.
            try await sql.raw(
                #"UPDATE "contact_field_types" SET "type" = NULL WHERE "user_id" = \#(literal: first.id) AND "type" = 'email'"#
            ).run()
            try await sql.raw(
                #"DELETE FROM "_fluent_migrations" WHERE "name" LIKE '%MoveContactEmailsToFields' OR "name" LIKE '%AddContactWork'"#
            ).run()

            try await app.autoMigrate()
            for (contact, account, expected) in [
                (ada, first, ["020 7946 0000", "ada@example.com"]), (alan, second, ["alan@example.com"]),
                (sam, second, []),
            ] {
                let fields = try await app.send(
                    .GET, "/api/contacts/\(contact.id)/contactfields", headers: account.bearer
                ).decoded(PageResource<ContactFieldResource>.self).data
                XCTAssertEqual(fields.map(\.content), expected, "\(database): \(contact.fields.firstName)")
            }
            let secondKinds = try await types(app, second)
            XCTAssertEqual(secondKinds.count, 7, "the account's kinds were made for its e-mails")
            let firstKinds = try await types(app, first)
            XCTAssertEqual(firstKinds.filter { $0.type == "email" }.map(\.name), ["Email"], "made again")
            XCTAssertEqual(firstKinds.count, 8)
            let byPhone = try await contactIDs(app, first, searching: "02079460000")
            XCTAssertEqual(byPhone, [ada.id], "search keys take the fields in")
            let hashes = try await app.db.plainRows(
                #"SELECT "gravatar_hash" FROM "contacts" ORDER BY "id""#, columns: ["gravatar_hash"])
            XCTAssertEqual(
                try hashes.map { try $0.text(0) },
                [Avatar.gravatarHash(email: "ada@example.com"), Avatar.gravatarHash(email: "alan@example.com"), nil])
        }
    }

    func testWithContactFieldsAddsFieldsAndNewestNotesAndWorkIsTheCareer() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", email: "ada@example.com"))
            for body in ["First", "Second", "Third", "Fourth"] {
                clock.advance(by: 60)
                _ = try await app.send(
                    .POST, "/api/notes", headers: account.bearer,
                    json: #"{"contact_id": \#(ada.id), "body": "\#(body)"}"#)
            }
            let plain = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertFalse(plain.text.contains(#""contactFields""#), "\(database): only when asked")
            let asked = try await app.send(.GET, "/api/contacts/\(ada.id)?with=contactfields", headers: account.bearer)
            let keys = try XCTUnwrap(JSONKeyOrder.keys(of: asked.text, at: ["data"]))
            XCTAssertEqual(
                Array(keys.drop { $0 != "statistics" }.prefix(4)), ["statistics", "contactFields", "notes", "url"])
            let data = try asked.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(data.contactFields?.map(\.content), ["ada@example.com"])
            XCTAssertEqual(data.notes?.map(\.body), ["Fourth", "Third", "Second"], "the three newest, newest first")
            let wrongValue = try await app.send(
                .GET, "/api/contacts/\(ada.id)?with=contactFields", headers: account.bearer)
            XCTAssertFalse(wrongValue.text.contains(#""contactFields""#), "the exact value only")
            let listed = try await app.send(.GET, "/api/contacts?with=contactfields", headers: account.bearer)
            XCTAssertEqual(
                try listed.decoded(PageResource<ContactResource>.self).data.first?.notes?.count, 3)

            // Work: the keys sent change, the others stay, null clears.
            let work = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/work", headers: account.bearer,
                json: #"{"job": " Analyst ", "company": "Analytical Engines Ltd", "with": "contactfields"}"#)
            XCTAssertEqual(work.status, .ok, work.text)
            let worked = try work.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(worked.information.career.job, "Analyst")
            XCTAssertEqual(worked.information.career.company, "Analytical Engines Ltd")
            XCTAssertEqual(worked.contactFields?.count, 1, "a body's with=contactfields counts too")
            let jobOnly = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/work", headers: account.bearer, json: #"{"company": null}"#)
            let career = try jobOnly.decoded(DataEnvelope<ContactResource>.self).data.information.career
            XCTAssertEqual([career.job, career.company], ["Analyst", nil])
            let tooLong = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/work", headers: account.bearer,
                json: #"{"job": "\#(String(repeating: "j", count: 256))", "company": ["x"]}"#)
            XCTAssertEqual(tooLong.status, .unprocessableEntity)
            XCTAssertEqual(
                try tooLong.decoded(ErrorEnvelope.self).error.message,
                .list(["Company must be text.", "Job must be at most 255 characters."]))
            let stranger = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let foreign = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/work", headers: stranger.bearer, json: #"{"job": "Spy"}"#)
            XCTAssertEqual(foreign.status, .notFound)
            let kept = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(
                try kept.decoded(DataEnvelope<ContactResource>.self).data.information.career.job, "Analyst")

            // A tag's contacts always carry them.
            _ = try await app.send(
                .POST, "/api/contacts/\(ada.id)/setTags", headers: account.bearer, json: #"{"tags": ["family"]}"#)
            let tags = try await app.send(.GET, "/api/tags", headers: account.bearer)
                .decoded(PageResource<TagResource>.self).data
            let tagged = try await app.send(
                .GET, "/api/tags/\(try XCTUnwrap(tags.first).id)/contacts", headers: account.bearer)
            let taggedContact = try XCTUnwrap(try tagged.decoded(PageResource<ContactResource>.self).data.first)
            XCTAssertEqual(taggedContact.contactFields?.map(\.content), ["ada@example.com"])
            XCTAssertEqual(taggedContact.notes?.count, 3)
        }
    }
}

/// A field changed and deleted through its contact's path, as Monica's iOS app does.
final class ContactFieldsThroughTheirContactTests: XCTestCase {
    func testAFieldChangesAndGoesThroughItsContactsPathOnly() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let kinds = try await app.send(.GET, "/api/contactfieldtypes", headers: account.bearer)
                .decoded(PageResource<ContactFieldTypeResource>.self).data
            let phone = try XCTUnwrap(kinds.first { $0.type == "phone" })
            let made = try await app.send(
                .POST, "/api/contacts/\(ada.id)/contactfields", headers: account.bearer,
                json: #"{"contact_field_type_id": \#(phone.id), "data": "+44 20 7946 0958"}"#)
            XCTAssertEqual(made.status, .created, "\(database): \(made.text)")
            let field = try made.decoded(DataEnvelope<ContactFieldResource>.self).data

            let changed = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/contactfields/\(field.id)", headers: account.bearer,
                json:
                    #"{"contact_field_type_id": \#(phone.id), "data": "+44 20 7946 0000", "contact_id": \#(byron.id)}"#)
            XCTAssertEqual(changed.status, .ok, changed.text)
            let updated = try changed.decoded(DataEnvelope<ContactFieldResource>.self).data
            XCTAssertEqual(updated.content, "+44 20 7946 0000")
            XCTAssertEqual(updated.contact.id, ada.id, "it stays with the contact in the path")

            // Through another contact's path it is not found, and stays.
            for (method, json) in [
                (HTTPMethod.PUT, #"{"contact_field_type_id": \#(phone.id), "data": "x"}"#), (.DELETE, nil),
            ] {
                let wrong = try await app.send(
                    method, "/api/contacts/\(byron.id)/contactfields/\(field.id)", headers: account.bearer, json: json)
                XCTAssertEqual(wrong.status, .notFound, "\(method): \(wrong.text)")
            }
            let shown = try await app.send(
                .GET, "/api/contacts/\(ada.id)/contactfields/\(field.id)", headers: account.bearer)
            XCTAssertEqual(try shown.decoded(DataEnvelope<ContactFieldResource>.self).data, updated)

            let deleted = try await app.send(
                .DELETE, "/api/contacts/\(ada.id)/contactfields/\(field.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(field.id)}"#)
            let left = try await app.count(ContactFieldsTable.self)
            XCTAssertEqual(left, 0)
        }
    }
}
