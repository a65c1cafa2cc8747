import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit
import XCTVapor

@testable import LocifyServer

/// `/api/genders` and a contact's gender.
final class GendersAPITests: XCTestCase {
    private func genders(_ app: Application, _ account: TestAccount) async throws -> [GenderResource] {
        try await app.send(.GET, "/api/genders", headers: account.bearer).decoded(PageResource<GenderResource>.self)
            .data
    }

    func testEachAccountStartsWithMonicasThreeAndKeepsItsOwnList() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let response = try await app.send(.GET, "/api/genders", headers: account.bearer)
            XCTAssertEqual(response.status, .ok, "\(database)")
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data", "0"]),
                ["id", "object", "name", "type", "account", "created_at", "updated_at"])
            let defaults = try response.decoded(PageResource<GenderResource>.self).data
            XCTAssertEqual(defaults.map(\.name), ["Man", "Woman", "Rather not say"])
            XCTAssertEqual(defaults.map(\.type), ["M", "F", "O"])
            XCTAssertEqual(defaults.first?.object, "gender")

            let made = try await app.send(
                .POST, "/api/genders", headers: account.bearer, json: #"{"name": " Non-binary ", "type": "n"}"#)
            XCTAssertEqual(made.status, .created)
            let nonBinary = try made.decoded(DataEnvelope<GenderResource>.self).data
            XCTAssertEqual(nonBinary.name, "Non-binary")
            XCTAssertEqual(nonBinary.type, "N")
            let untyped = try await app.send(
                .POST, "/api/genders", headers: account.bearer, json: #"{"name": "Other"}"#)
            XCTAssertEqual(try untyped.decoded(DataEnvelope<GenderResource>.self).data.type, "O", "O when left out")
            let renamed = try await app.send(
                .PUT, "/api/genders/\(nonBinary.id)", headers: account.bearer, json: #"{"name": "Nonbinary"}"#)
            let afterRename = try renamed.decoded(DataEnvelope<GenderResource>.self).data
            XCTAssertEqual(afterRename.name, "Nonbinary")
            XCTAssertEqual(afterRename.type, "N", "left out, kept")
            let refused = try await app.send(
                .POST, "/api/genders", headers: account.bearer, json: #"{"name": "", "type": "X"}"#)
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list(["Name the gender.", "Type must be M, F, O, U or N."]))
            let five = try await genders(app, account)
            XCTAssertEqual(five.count, 5)

            // A second account has its own three, and cannot see or use the first's.
            let other = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let theirs = try await genders(app, other)
            XCTAssertEqual(theirs.map(\.name), ["Man", "Woman", "Rather not say"])
            XCTAssertTrue(Set(theirs.map(\.id)).isDisjoint(with: defaults.map(\.id) + [nonBinary.id]))
            for (method, json) in [(HTTPMethod.GET, nil), (.PUT, #"{"name": "Mine"}"#), (.DELETE, nil)]
                as [(HTTPMethod, String?)]
            {
                let response = try await app.send(
                    method, "/api/genders/\(nonBinary.id)", headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(method)")
            }
            let borrowed = try await app.send(
                .POST, "/api/contacts", headers: other.bearer,
                json: #"{"first_name": "Mallory", "gender_id": \#(nonBinary.id)}"#)
            XCTAssertEqual(borrowed.status, .notFound)
            let kept = try await genders(app, account)
            XCTAssertEqual(kept.map(\.name).last, "Other")
        }
    }

    func testAContactsGenderByIDOrNameAndAGenderInUseNeedsAReplacement() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let defaults = try await genders(app, account)
            let woman = defaults[1]
            let created = try await app.send(
                .POST, "/api/contacts", headers: account.bearer,
                json: #"{"first_name": "Ada", "gender_id": \#(woman.id)}"#)
            let ada = try created.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(ada.gender, "Woman", "\(database)")
            XCTAssertEqual(ada.genderType, "F")
            let byName = try await app.send(
                .POST, "/api/contacts", headers: account.bearer, json: #"{"first_name": "Alan", "gender": "man"}"#)
            let alan = try byName.decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(alan.gender, "Man")
            let unknown = try await app.send(
                .POST, "/api/contacts", headers: account.bearer, json: #"{"first_name": "Bob", "gender": "Robot"}"#)
            XCTAssertEqual(unknown.status, .notFound)

            // Renaming a gender shows on its contacts.
            _ = try await app.send(
                .PUT, "/api/genders/\(woman.id)", headers: account.bearer, json: #"{"name": "Female"}"#)
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try shown.decoded(DataEnvelope<ContactResource>.self).data.gender, "Female")

            // In use: refused without a replacement, and nothing changes; with one, the contacts move.
            let inUse = try await app.send(.DELETE, "/api/genders/\(woman.id)", headers: account.bearer)
            XCTAssertEqual(inUse.status, .conflict)
            XCTAssertEqual(
                try inUse.decoded(ErrorEnvelope.self).error.message,
                .list(["1 contact has this gender: say which gender replaces it (replace_by)."]))
            let itself = try await app.send(
                .DELETE, "/api/genders/\(woman.id)?replace_by=\(woman.id)", headers: account.bearer)
            XCTAssertEqual(itself.status, .conflict)
            let elsewhere = try await app.send(
                .DELETE, "/api/genders/\(woman.id)?replace_by=999999", headers: account.bearer)
            XCTAssertEqual(elsewhere.status, .notFound)
            let three = try await genders(app, account)
            XCTAssertEqual(three.count, 3)
            let rather = defaults[2]
            let deleted = try await app.send(
                .DELETE, "/api/genders/\(woman.id)", headers: account.bearer, json: #"{"replace_by": \#(rather.id)}"#)
            XCTAssertEqual(deleted.status, .ok)
            let moved = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try moved.decoded(DataEnvelope<ContactResource>.self).data.genderType, "O")
            // Unused: deleted as it is; the last one stays.
            let man = defaults[0]
            let cleared = try await app.send(
                .PUT, "/api/contacts/\(alan.id)", headers: account.bearer, json: #"{"gender_id": null}"#)
            XCTAssertNil(try cleared.decoded(DataEnvelope<ContactResource>.self).data.gender)
            let unused = try await app.send(.DELETE, "/api/genders/\(man.id)", headers: account.bearer)
            XCTAssertEqual(unused.status, .ok)
            _ = try await app.send(
                .PUT, "/api/contacts/\(ada.id)", headers: account.bearer, json: #"{"gender_id": null}"#)
            let last = try await app.send(.DELETE, "/api/genders/\(rather.id)", headers: account.bearer)
            XCTAssertEqual(last.status, .conflict)
            XCTAssertEqual(
                try last.decoded(ErrorEnvelope.self).error.message,
                .list(["This is the last gender: add another before deleting it."]))
        }
    }

    /// Contacts saved before genders were a list kept `man`, `woman` or `rather_not_say`; the migration
    /// gives every account Monica's three and points each contact at its account's gender of that kind.
    func testTheMigrationMovesStoredGendersToEachAccountsList() async throws {
        try await forEachDatabase { app, _, database in
            let first = try await app.makeAccount()
            let second = try await app.makeAccount(email: "grace@example.com", name: "Grace Hopper")
            let ada = try await app.makeContact(for: first, ContactDraft(firstName: "Ada", genderName: "F"))
            let alan = try await app.makeContact(for: second, ContactDraft(firstName: "Alan", genderName: "M"))
            let kim = try await app.makeContact(for: second, ContactDraft(firstName: "Kim", genderName: "O"))
            let nobody = try await app.makeContact(for: second, ContactDraft(firstName: "Sam"))
            // Back to the old shape: the gender as text on the contact, no genders table (and no revision
            // log or sync identities, which later migrations added to it).
            let sql = try app.db.sqlDatabase()
            let identities = try XCTUnwrap(locifyMigrations.lazy.compactMap { $0 as? AddSyncIdentities }.first)
            try await identities.revert(on: app.db)
            try await sql.raw(#"DELETE FROM "_fluent_migrations" WHERE "name" LIKE '%AddSyncIdentities'"#).run()
            let revisionLog = try XCTUnwrap(locifyMigrations.lazy.compactMap { $0 as? AddRevisionLog }.first)
            try await revisionLog.revert(on: app.db)
            try await sql.raw(#"DELETE FROM "_fluent_migrations" WHERE "name" LIKE '%AddRevisionLog'"#).run()
            try await CreateGenders().revert(on: app.db)
            let stored = try await app.db.plainRows(
                #"SELECT "id", "gender" FROM "contacts" ORDER BY "id""#, columns: ["id", "gender"])
            XCTAssertEqual(
                try stored.map { try $0.text(1) }, ["woman", "man", "rather_not_say", nil], "\(database)")
            try await sql.raw(#"DELETE FROM "_fluent_migrations" WHERE "name" LIKE '%CreateGenders'"#).run()

            try await app.autoMigrate()
            let firstGenders = try await genders(app, first)
            let secondGenders = try await genders(app, second)
            XCTAssertEqual(firstGenders.map(\.name), ["Man", "Woman", "Rather not say"])
            XCTAssertEqual(secondGenders.map(\.type), ["M", "F", "O"])
            for (contact, account, expected) in [
                (ada, first, firstGenders[1]), (alan, second, secondGenders[0]), (kim, second, secondGenders[2]),
            ] {
                let shown = try await app.send(.GET, "/api/contacts/\(contact.id)", headers: account.bearer)
                let resource = try shown.decoded(DataEnvelope<ContactResource>.self).data
                XCTAssertEqual(resource.gender, expected.name, contact.fields.firstName)
                XCTAssertEqual(resource.genderType, expected.type)
            }
            let plain = try await app.send(.GET, "/api/contacts/\(nobody.id)", headers: second.bearer)
            XCTAssertNil(try plain.decoded(DataEnvelope<ContactResource>.self).data.gender)
        }
    }

    func testSettingsManageTheGendersAContactIsChosenFrom() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let page = try await browser.get("/settings/genders")
            XCTAssertEqual(page.status, .ok, "\(database)")
            XCTAssertTrue(page.text.contains(#"value="Rather not say""#))
            let refused = try await browser.post("/settings/genders", form: ["name": " ", "type": "O"])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains("Name the gender."))
            XCTAssertTrue(refused.text.contains(#"<p class="error" id="new-gender-name-error">Name the gender.</p>"#))
            try await browser.post("/settings/genders", form: ["name": "Non-binary", "type": "N"])
            let api = try await app.apiAccount(email: "grace@example.com")
            var genders = try await app.send(.GET, "/api/genders", headers: api.bearer)
                .decoded(PageResource<GenderResource>.self).data
            let nonBinary = try XCTUnwrap(genders.last)
            XCTAssertEqual(nonBinary.type, "N")

            // The contact form offers it; a contact with it keeps a gender when it is deleted.
            let form = try await browser.get("/contacts/new")
            XCTAssertTrue(form.text.contains(#"<option value="\#(nonBinary.id)">Non-binary</option>"#))
            let created = try await browser.post(
                "/contacts", form: ["first_name": "Sam", "gender_id": String(nonBinary.id)])
            let contactPage = try XCTUnwrap(created.headers.first(name: .location))
            let shown1 = try await browser.get(contactPage).text
            XCTAssertTrue(shown1.contains("Non-binary"))
            try await browser.get("/settings/genders")
            // A refused rename is drawn again in that gender's row with what was typed, the others untouched.
            let badRename = try await browser.post(
                "/settings/genders/\(nonBinary.id)", form: ["name": String(repeating: "x", count: 300), "type": "F"])
            XCTAssertEqual(badRename.status, .unprocessableEntity)
            XCTAssertTrue(badRename.text.contains(#"<p class="error" id="gender-\#(nonBinary.id)-name-error">"#))
            XCTAssertTrue(badRename.text.contains(#"value="\#(String(repeating: "x", count: 300))""#))
            XCTAssertFalse(badRename.text.contains(#"id="new-gender-name-error""#))
            try await browser.post("/settings/genders/\(nonBinary.id)", form: ["name": "Enby", "type": "N"])
            let shown2 = try await browser.get(contactPage).text
            XCTAssertTrue(shown2.contains("Enby"))
            try await browser.get("/settings/genders")
            let inUse = try await browser.post("/settings/genders/\(nonBinary.id)/delete", form: [:])
            XCTAssertEqual(inUse.status, .unprocessableEntity)
            XCTAssertTrue(inUse.text.contains("1 contact has this gender"))
            let other = genders[2]
            let deleted = try await browser.post(
                "/settings/genders/\(nonBinary.id)/delete", form: ["replace_by": String(other.id)])
            XCTAssertEqual(deleted.status, .seeOther)
            let shown3 = try await browser.get(contactPage).text
            XCTAssertTrue(shown3.contains(other.name))
            genders = try await app.send(.GET, "/api/genders", headers: api.bearer)
                .decoded(PageResource<GenderResource>.self).data
            XCTAssertEqual(genders.count, 3)
        }
    }
}
