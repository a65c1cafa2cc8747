import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/tags`, `setTags`, `unsetTag`, `unsetTags` and the contact's `tags`.
final class TagsAPITests: XCTestCase {
    private func setTags(
        _ app: Application, _ account: TestAccount, _ contactID: Int, _ json: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> ContactResource {
        let response = try await app.send(
            .POST, "/api/contacts/\(contactID)/setTags", headers: account.bearer, json: json)
        XCTAssertEqual(response.status, .ok, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<ContactResource>.self, file: file, line: line).data
    }

    func testATagsShapeAndNamesUniqueIgnoringCaseAndAccents() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let response = try await app.send(
                .POST, "/api/tags", headers: account.bearer, json: #"{"name": "  Book Club – Zürich "}"#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            XCTAssertEqual(
                JSONKeyOrder.keys(of: response.text, at: ["data"]),
                ["id", "object", "name", "name_slug", "account", "created_at", "updated_at"])
            let club = try response.decoded(DataEnvelope<TagResource>.self).data
            XCTAssertEqual(club.object, "tag")
            XCTAssertEqual(club.name, "Book Club – Zürich")
            XCTAssertEqual(club.nameSlug, "book-club-zurich")
            XCTAssertEqual(club.account.id, account.id)

            let twin = try await app.send(
                .POST, "/api/tags", headers: account.bearer, json: #"{"name": "book club – zurich"}"#)
            XCTAssertEqual(try twin.decoded(DataEnvelope<TagResource>.self).data.id, club.id, "the existing tag")
            clock.advance(by: 60)
            let family = try await app.send(.POST, "/api/tags", headers: account.bearer, json: #"{"name": "家族"}"#)
            let familyTag = try family.decoded(DataEnvelope<TagResource>.self).data
            XCTAssertEqual(familyTag.nameSlug, "jia-zu", "transliterated")
            let party = try await app.send(.POST, "/api/tags", headers: account.bearer, json: #"{"name": "🎉"}"#)
            let partyTag = try party.decoded(DataEnvelope<TagResource>.self).data
            XCTAssertEqual(partyTag.nameSlug, "🎉", "nothing to spell in ASCII: the name itself")
            _ = try await app.send(.DELETE, "/api/tags/\(partyTag.id)", headers: account.bearer)
            let list = try await app.send(.GET, "/api/tags?sort=-created_at", headers: account.bearer)
            let page = try list.decoded(PageResource<TagResource>.self)
            XCTAssertEqual(page.meta.total, 2)
            XCTAssertEqual(page.data.map(\.name), ["Book Club – Zürich", "家族"], "by name whatever sort says")

            let clash = try await app.send(
                .PUT, "/api/tags/\(familyTag.id)", headers: account.bearer, json: #"{"name": "BOOK CLUB – ZURICH"}"#)
            XCTAssertEqual(clash.status, .conflict)
            XCTAssertEqual(
                try clash.decoded(ErrorEnvelope.self).error.message,
                .list(["There is already a tag named “Book Club – Zürich”."]))
            let renamed = try await app.send(
                .PUT, "/api/tags/\(familyTag.id)", headers: account.bearer, json: #"{"name": "Family"}"#)
            XCTAssertEqual(try renamed.decoded(DataEnvelope<TagResource>.self).data.name, "Family")
            let recased = try await app.send(
                .PUT, "/api/tags/\(club.id)", headers: account.bearer, json: #"{"name": "book club – Zürich"}"#)
            XCTAssertEqual(
                try recased.decoded(DataEnvelope<TagResource>.self).data.name, "book club – Zürich",
                "its own name in another case is no clash")
            for bad in [#"{"name": " "}"#, #"{}"#, #"{"name": "\#(String(repeating: "x", count: 256))"}"#] {
                let refused = try await app.send(.POST, "/api/tags", headers: account.bearer, json: bad)
                XCTAssertEqual(refused.status, .unprocessableEntity, bad)
            }
            let count = try await app.send(.GET, "/api/tags", headers: account.bearer)
            XCTAssertEqual(try count.decoded(PageResource<TagResource>.self).meta.total, 2)
        }
    }

    func testSetTagsMakesAndReusesTagsAndUnsetTakesThemOff() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let existing = try await app.send(.POST, "/api/tags", headers: account.bearer, json: #"{"name": "Family"}"#)
            let family = try existing.decoded(DataEnvelope<TagResource>.self).data

            let tagged = try await setTags(app, account, ada.id, #"{"tags": ["family ", "Friend", "", "friend", 42]}"#)
            XCTAssertEqual(tagged.tags.map(\.name), ["Family", "Friend", "42"], "\(database): reused, made, in order")
            XCTAssertEqual(tagged.tags.first?.id, family.id)
            let again = try await setTags(app, account, ada.id, #"{"tags": ["Neighbour"]}"#)
            XCTAssertEqual(again.tags.map(\.name), ["Family", "Friend", "42", "Neighbour"], "additive")
            _ = try await setTags(app, account, grace.id, #"{"tags": ["FAMILY"]}"#)
            let tags = try await app.send(.GET, "/api/tags", headers: account.bearer)
            XCTAssertEqual(try tags.decoded(PageResource<TagResource>.self).meta.total, 4)

            // The contact's resource carries its tags, alone and in lists; a tag lists its contacts.
            let shown = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(
                try shown.decoded(DataEnvelope<ContactResource>.self).data.tags.map(\.name),
                ["Family", "Friend", "42", "Neighbour"])
            XCTAssertEqual(
                JSONKeyOrder.keys(of: shown.text, at: ["data", "tags", "0"]),
                ["id", "object", "name", "name_slug", "account", "created_at", "updated_at"])
            let list = try await app.send(.GET, "/api/contacts?sort=created_at", headers: account.bearer)
            XCTAssertEqual(
                try list.decoded(PageResource<ContactResource>.self).data.map { $0.tags.map(\.name) },
                [["Family", "Friend", "42", "Neighbour"], ["Family"]])
            let members = try await app.send(.GET, "/api/tags/\(family.id)/contacts", headers: account.bearer)
            let memberPage = try members.decoded(PageResource<ContactResource>.self)
            XCTAssertEqual(Set(memberPage.data.map(\.firstName)), ["Ada", "Grace"])
            XCTAssertEqual(memberPage.meta.path, "http://127.0.0.1:8080/api/tags/\(family.id)/contacts")
            let friend = try XCTUnwrap(again.tags.first { $0.name == "Friend" })
            let friends = try await app.send(.GET, "/api/tags/\(friend.id)/contacts", headers: account.bearer)
            XCTAssertEqual(try friends.decoded(PageResource<ContactResource>.self).data.map(\.firstName), ["Ada"])

            // unsetTag is all or none: an unknown id leaves every tag on.
            let unknown = try await app.send(
                .POST, "/api/contacts/\(ada.id)/unsetTag", headers: account.bearer,
                json: #"{"tags": [\#(family.id), 999999]}"#)
            XCTAssertEqual(unknown.status, .notFound)
            let notANumber = try await app.send(
                .POST, "/api/contacts/\(ada.id)/unsetTag", headers: account.bearer, json: #"{"tags": ["family"]}"#)
            XCTAssertEqual(notANumber.status, .unprocessableEntity)
            let untouched = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
            XCTAssertEqual(try untouched.decoded(DataEnvelope<ContactResource>.self).data.tags.count, 4)
            let unset = try await app.send(
                .POST, "/api/contacts/\(ada.id)/unsetTag", headers: account.bearer,
                json: #"{"tags": [\#(family.id), "\#(friend.id)"]}"#)
            XCTAssertEqual(
                try unset.decoded(DataEnvelope<ContactResource>.self).data.tags.map(\.name), ["42", "Neighbour"])
            let cleared = try await app.send(.POST, "/api/contacts/\(ada.id)/unsetTags", headers: account.bearer)
            XCTAssertEqual(try cleared.decoded(DataEnvelope<ContactResource>.self).data.tags, [])
            let stillThere = try await app.send(.GET, "/api/tags", headers: account.bearer)
            XCTAssertEqual(try stillThere.decoded(PageResource<TagResource>.self).meta.total, 4, "the tags stay")

            // Deleting a tag takes it off every contact.
            let deleted = try await app.send(.DELETE, "/api/tags/\(family.id)", headers: account.bearer)
            XCTAssertEqual(try deleted.decoded(DeletedResource.self), DeletedResource(id: family.id))
            let graceNow = try await app.send(.GET, "/api/contacts/\(grace.id)", headers: account.bearer)
            XCTAssertEqual(try graceNow.decoded(DataEnvelope<ContactResource>.self).data.tags, [])
        }
    }

    func testSetTagsRefusesWithoutTagsAndOnArchivedContacts() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            for body in [#"{"tags": [2.5]}"#, #"{"tags": ["family", true]}"#, #"{"tags": [{"name": "x"}]}"#] {
                let refused = try await app.send(
                    .POST, "/api/contacts/\(ada.id)/setTags", headers: account.bearer, json: body)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(body)")
                XCTAssertEqual(
                    try refused.decoded(ErrorEnvelope.self).error.message, .list(["Each of tags must be a tag’s name."])
                )
            }
            for body in [#"{}"#, #"{"tags": "family"}"#, #"{"tags": null}"#] {
                let refused = try await app.send(
                    .POST, "/api/contacts/\(ada.id)/setTags", headers: account.bearer, json: body)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(body)")
                XCTAssertEqual(
                    try refused.decoded(ErrorEnvelope.self).error.message, .list(["The tags field is required."]))
            }
            let tooLong = try await app.send(
                .POST, "/api/contacts/\(ada.id)/setTags", headers: account.bearer,
                json: #"{"tags": ["Fine", "\#(String(repeating: "x", count: 256))"]}"#)
            XCTAssertEqual(tooLong.status, .unprocessableEntity)
            XCTAssertEqual(
                try tooLong.decoded(ErrorEnvelope.self).error.message, .list(["Tag must be at most 255 characters."]))
            let archived = try await app.makeContact(
                for: account, ContactDraft(firstName: "Old", isArchived: true))
            let onArchived = try await app.send(
                .POST, "/api/contacts/\(archived.id)/setTags", headers: account.bearer, json: #"{"tags": ["x"]}"#)
            XCTAssertEqual(onArchived.status, .conflict)
            XCTAssertEqual(
                try onArchived.decoded(ErrorEnvelope.self).error.message,
                .list(["Archived contact can’t be edited, please unarchive it first."]))
            let tags = try await app.send(.GET, "/api/tags", headers: account.bearer)
            XCTAssertEqual(try tags.decoded(PageResource<TagResource>.self).meta.total, 0, "nothing made")
        }
    }

    func testAnotherAccountsTagsAndContactsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let ada = try await app.makeContact(for: owner, ContactDraft(firstName: "Ada"))
            let tagged = try await setTags(app, owner, ada.id, #"{"tags": ["Family"]}"#)
            let family = try XCTUnwrap(tagged.tags.first)
            let other = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let eves = try await app.makeContact(for: other, ContactDraft(firstName: "Mallory"))
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/tags/\(family.id)", nil),
                (.PUT, "/api/tags/\(family.id)", #"{"name": "Mine"}"#),
                (.DELETE, "/api/tags/\(family.id)", nil),
                (.GET, "/api/tags/\(family.id)/contacts", nil),
                (.POST, "/api/contacts/\(ada.id)/setTags", #"{"tags": ["Eve's"]}"#),
                (.POST, "/api/contacts/\(ada.id)/unsetTag", #"{"tags": [\#(family.id)]}"#),
                (.POST, "/api/contacts/\(ada.id)/unsetTags", nil),
                (.POST, "/api/contacts/\(eves.id)/unsetTag", #"{"tags": [\#(family.id)]}"#),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path)")
            }
            let theirs = try await app.send(.GET, "/api/tags", headers: other.bearer)
            XCTAssertEqual(try theirs.decoded(PageResource<TagResource>.self).meta.total, 0)
            let kept = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: owner.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<ContactResource>.self).data.tags.map(\.name), ["Family"])
            // The same name in two accounts is two tags.
            let evesFamily = try await setTags(app, other, eves.id, #"{"tags": ["family"]}"#)
            XCTAssertNotEqual(evesFamily.tags.first?.id, family.id)
        }
    }
}
