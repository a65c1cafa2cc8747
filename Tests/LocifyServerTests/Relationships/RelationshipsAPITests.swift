import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/relationships`, the per-contact list, Monica's fixed types and groups, a contact's
/// `information.relationships`, and relationships in the sync feed: both sides always change together.
final class RelationshipsAPITests: XCTestCase {
    private func relate(
        _ app: Application, _ account: TestAccount, _ contact: Contact, is typeID: Int, of other: Contact,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> RelationshipResource {
        let response = try await app.send(
            .POST, "/api/relationships", headers: account.bearer,
            json: #"{"contact_is": \#(contact.id), "of_contact": \#(other.id), "relationship_type_id": \#(typeID)}"#)
        XCTAssertEqual(response.status, .created, response.text, file: file, line: line)
        return try response.decoded(DataEnvelope<RelationshipResource>.self, file: file, line: line).data
    }

    private func sides(_ app: Application, _ account: TestAccount, of contact: Contact) async throws -> [String] {
        let response = try await app.send(
            .GET, "/api/contacts/\(contact.id)/relationships", headers: account.bearer)
        XCTAssertEqual(response.status, .ok, response.text)
        return try response.decoded(DataEnvelope<[RelationshipResource]>.self).data.map {
            "\($0.ofContact.firstName) is \($0.contactIs.firstName)'s \($0.relationshipType.name)"
        }
    }

    private func shortJSON(_ app: Application, _ account: TestAccount, _ contact: Contact) async throws -> String {
        let response = try await app.send(.GET, "/api/contacts/\(contact.id)", headers: account.bearer)
        let full = try response.decoded(DataEnvelope<ContactResource>.self).data
        let short = ContactShortResource(
            contact, url: full.url, avatar: full.information.avatar, currentYear: 2024)
        return String(decoding: try OrderedJSONEncoder().encodedBytes(short), as: UTF8.self)
    }

    func testARelationshipsShapeMatchesMonicasAndItsOtherSideIsMadeToo() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let anna = try await app.makeContact(for: account, ContactDraft(firstName: "Anna"))
            let ben = try await app.makeContact(for: account, ContactDraft(firstName: "Ben"))
            // "Anna is Ben's parent": Ben's side, of Anna.
            let response = try await app.send(
                .POST, "/api/relationships", headers: account.bearer,
                json: #"{"contact_is": \#(ben.id), "of_contact": \#(anna.id), "relationship_type_id": 8}"#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<RelationshipResource>.self).data
            let benJSON = try await shortJSON(app, account, ben)
            let annaJSON = try await shortJSON(app, account, anna)
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"relationship","contact_is":\#(benJSON),"#
                    + #""relationship_type":{"id":8,"object":"relationshiptype","name":"parent","#
                    + #""name_reverse_relationship":"child","relationship_type_group_id":2,"delible":false,"#
                    + #""account":{"id":\#(account.id)},"created_at":"2024-05-04T10:06:05Z","#
                    + #""updated_at":"2024-05-04T10:06:05Z"},"of_contact":\#(annaJSON),"#
                    + #""url":"http://127.0.0.1:8080/api/relationships/\#(made.id)","account":{"id":\#(account.id)},"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"}}"#)

            let bensSides = try await sides(app, account, of: ben)
            XCTAssertEqual(bensSides, ["Anna is Ben's parent"])
            let annasSides = try await sides(app, account, of: anna)
            XCTAssertEqual(annasSides, ["Ben is Anna's child"])
            let count = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(count, 2, "one row per side")

            // Each contact's `information.relationships`, in its group, by any route answering a contact.
            let shown = try await app.send(.GET, "/api/contacts/\(ben.id)", headers: account.bearer)
            XCTAssertTrue(
                shown.text.contains(
                    #""information":{"relationships":{"love":{"total":0,"contacts":[]},"family":{"total":1,"#
                        + #""contacts":[{"relationship":{"id":\#(made.id),"uuid":"\#(made.uuid)","name":"parent"},"#
                        + #""contact":\#(annaJSON)}]},"friend":{"total":0,"contacts":[]},"#
                        + #""work":{"total":0,"contacts":[]}},"#), shown.text)
            let list = try await app.send(.GET, "/api/contacts", headers: account.bearer)
            let page = try list.decoded(PageResource<ContactResource>.self)
            let annaListed = try XCTUnwrap(page.data.first { $0.id == anna.id })
            XCTAssertEqual(annaListed.information.relationships.family.contacts.map(\.relationship.name), ["child"])
            XCTAssertEqual(annaListed.information.relationships.family.contacts.map(\.contact.id), [ben.id])
            XCTAssertEqual(annaListed.information.relationships.love.total, 0)
        }
    }

    func testRetypingAndDeletingFromEitherSideChangesBoth() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let anna = try await app.makeContact(for: account, ContactDraft(firstName: "Anna"))
            let ben = try await app.makeContact(for: account, ContactDraft(firstName: "Ben"))
            let made = try await relate(app, account, ben, is: 21, of: anna)  // Anna is Ben's boss.
            let annasBefore = try await sides(app, account, of: anna)
            XCTAssertEqual(annasBefore, ["Ben is Anna's subordinate"])

            // Retyped from Anna's side: Ben's follows.
            let annasSide = try await app.send(
                .GET, "/api/contacts/\(anna.id)/relationships", headers: account.bearer)
            let reverse = try annasSide.decoded(DataEnvelope<[RelationshipResource]>.self).data[0]
            clock.advance(by: 60)
            let retyped = try await app.send(
                .PUT, "/api/relationships/\(reverse.id)", headers: account.bearer,
                json: #"{"relationship_type_id": 23, "contact_is": 999999}"#)
            XCTAssertEqual(retyped.status, .ok, "\(database): \(retyped.text)")
            let updated = try retyped.decoded(DataEnvelope<RelationshipResource>.self).data
            XCTAssertEqual(updated.relationshipType.name, "mentor")
            XCTAssertEqual(updated.contactIs.id, anna.id, "the contacts never change")
            XCTAssertEqual(updated.updatedAt, "2024-05-04T10:07:05Z")
            let bensAfter = try await sides(app, account, of: ben)
            XCTAssertEqual(bensAfter, ["Anna is Ben's protege"])
            let annasAfter = try await sides(app, account, of: anna)
            XCTAssertEqual(annasAfter, ["Ben is Anna's mentor"])

            // A type that goes both ways: each side has it.
            _ = try await app.send(
                .PUT, "/api/relationships/\(made.id)", headers: account.bearer, json: #"{"relationship_type_id": 20}"#)
            let colleagues = try await sides(app, account, of: anna)
            XCTAssertEqual(colleagues, ["Ben is Anna's colleague"])

            // Deleted from Ben's side: Anna's goes too.
            let deleted = try await app.send(.DELETE, "/api/relationships/\(made.id)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(made.id)}"#)
            let annasLeft = try await sides(app, account, of: anna)
            XCTAssertEqual(annasLeft, [])
            let count = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(count, 0)
            let gone = try await app.send(.GET, "/api/relationships/\(reverse.id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
        }
    }

    func testBadRelationshipsAreRefusedWholeAndNothingSaved() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let anna = try await app.makeContact(for: account, ContactDraft(firstName: "Anna"))
            let ben = try await app.makeContact(for: account, ContactDraft(firstName: "Ben"))
            let cases: [(String, [String])] = [
                (
                    "{}",
                    [
                        "Choose the contact the relationship is about.", "Choose the related contact.",
                        "Choose the kind of relationship.",
                    ]
                ),
                (
                    #"{"contact_is": "Ben", "of_contact": \#(anna.id), "relationship_type_id": 8}"#,
                    ["Contact must be a whole number."]
                ),
                (
                    #"{"contact_is": \#(ben.id), "of_contact": \#(anna.id), "relationship_type_id": 28}"#,
                    ["The selected relationship type id is invalid."]
                ),
            ]
            for (json, messages) in cases {
                let response = try await app.send(.POST, "/api/relationships", headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(json): \(response.text)")
                XCTAssertEqual(response.errorCode, 32, json)
                XCTAssertEqual(try response.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            // Rules the input's form cannot say answer 409: a contact related to itself, a relationship twice.
            let itself = try await app.send(
                .POST, "/api/relationships", headers: account.bearer,
                json: #"{"contact_is": \#(ben.id), "of_contact": \#(ben.id), "relationship_type_id": 18}"#)
            XCTAssertEqual(itself.status, .conflict, itself.text)
            XCTAssertEqual(itself.errorCode, 32)
            XCTAssertEqual(
                try itself.decoded(ErrorEnvelope.self).error.message,
                .list(["A contact cannot be in a relationship with themselves."]))
            let made = try await relate(app, account, ben, is: 8, of: anna)
            // The same relationship again, from either side, is refused.
            let twice: [String] = [
                #"{"contact_is": \#(ben.id), "of_contact": \#(anna.id), "relationship_type_id": 8}"#,
                #"{"contact_is": \#(anna.id), "of_contact": \#(ben.id), "relationship_type_id": 9}"#,
            ]
            for json in twice {
                let again = try await app.send(.POST, "/api/relationships", headers: account.bearer, json: json)
                XCTAssertEqual(again.status, .conflict, again.text)
                XCTAssertEqual(
                    try again.decoded(ErrorEnvelope.self).error.message,
                    .list(["The two contacts already have this relationship."]))
            }
            let badType = try await app.send(
                .PUT, "/api/relationships/\(made.id)", headers: account.bearer, json: #"{"relationship_type_id": 0}"#)
            XCTAssertEqual(badType.status, .unprocessableEntity, badType.text)
            // The contacts do not change on update, but one sent unreadable is a mistake said, not ignored.
            let unreadable = try await app.send(
                .PUT, "/api/relationships/\(made.id)", headers: account.bearer,
                json: #"{"relationship_type_id": 10, "of_contact": false, "contact_is": "Anna"}"#)
            XCTAssertEqual(unreadable.status, .unprocessableEntity, unreadable.text)
            let noType = try await app.send(.PUT, "/api/relationships/\(made.id)", headers: account.bearer, json: "{}")
            XCTAssertEqual(
                try noType.decoded(ErrorEnvelope.self).error.message, .list(["Choose the kind of relationship."]))

            // An archived contact's relationships cannot change.
            let carl = try await app.makeContact(for: account, ContactDraft(firstName: "Carl", isArchived: true))
            let archived = try await app.send(
                .POST, "/api/relationships", headers: account.bearer,
                json: #"{"contact_is": \#(carl.id), "of_contact": \#(anna.id), "relationship_type_id": 18}"#)
            XCTAssertEqual(archived.status, .conflict, archived.text)
            XCTAssertEqual(
                try archived.decoded(ErrorEnvelope.self).error.message,
                .list(["Archived contact can’t be edited, please unarchive it first."]))

            let count = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(count, 2, "only the good relationship's two sides")
            let kept = try await sides(app, account, of: ben)
            XCTAssertEqual(kept, ["Anna is Ben's parent"])
        }
    }

    func testAnotherAccountsRelationshipsAreNotFoundAndUntouched() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let anna = try await app.makeContact(for: account, ContactDraft(firstName: "Anna"))
            let ben = try await app.makeContact(for: account, ContactDraft(firstName: "Ben"))
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let made = try await relate(app, account, ben, is: 18, of: anna)
            let attempts: [(HTTPMethod, String, String?)] = [
                (.GET, "/api/relationships/\(made.id)", nil),
                (.PUT, "/api/relationships/\(made.id)", #"{"relationship_type_id": 19}"#),
                (.DELETE, "/api/relationships/\(made.id)", nil),
                (
                    .POST, "/api/relationships",
                    #"{"contact_is": \#(grace.id), "of_contact": \#(anna.id), "relationship_type_id": 18}"#
                ),
                (
                    .POST, "/api/contacts/\(ben.id)/relationships",
                    #"{"of_contact": \#(grace.id), "relationship_type_id": 18}"#
                ),
            ]
            for (method, path, json) in attempts {
                let response = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database) \(method) \(path): \(response.text)")
                XCTAssertEqual(response.errorCode, 31)
            }
            // Monica answers an empty list for a contact that is not the account's; Locify, as on every
            // other list of a contact's, that it is not found.
            let theirs = try await app.send(.GET, "/api/contacts/\(ben.id)/relationships", headers: other.bearer)
            XCTAssertEqual(theirs.status, .notFound)
            let count = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(count, 2)
            let kept = try await sides(app, account, of: ben)
            XCTAssertEqual(kept, ["Anna is Ben's friend"])
        }
    }

    func testTheFixedTypesAndGroupsAreMonicasDefaults() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let first = try await app.send(.GET, "/api/relationshiptypes", headers: account.bearer)
            XCTAssertEqual(first.status, .ok, "\(database): \(first.text)")
            let page = try first.decoded(PageResource<RelationshipTypeResource>.self)
            XCTAssertEqual(page.data.count, 15)
            XCTAssertEqual(page.meta.total, 27)
            XCTAssertEqual(page.data.prefix(3).map(\.name), ["partner", "spouse", "date"])
            let second = try await app.send(.GET, "/api/relationshiptypes?page=2", headers: account.bearer)
            let rest = try second.decoded(PageResource<RelationshipTypeResource>.self).data
            XCTAssertEqual(rest.map(\.id), Array(16...27))
            XCTAssertEqual(Array(rest.map(\.name).prefix(2)), ["godfather", "godson"])
            XCTAssertEqual(rest.last?.name, "stepchild", "Monica's later additions come last")
            XCTAssertEqual(rest.last?.nameReverseRelationship, "stepparent")

            let one = try await app.send(.GET, "/api/relationshiptypes/5", headers: account.bearer)
            XCTAssertEqual(
                one.text,
                #"{"data":{"id":5,"object":"relationshiptype","name":"inlovewith","#
                    + #""name_reverse_relationship":"lovedby","relationship_type_group_id":1,"delible":false,"#
                    + #""account":{"id":\#(account.id)},"created_at":"2024-05-04T10:06:05Z","#
                    + #""updated_at":"2024-05-04T10:06:05Z"}}"#)
            let groups = try await app.send(.GET, "/api/relationshiptypegroups", headers: account.bearer)
            XCTAssertEqual(
                try groups.decoded(PageResource<RelationshipTypeGroupResource>.self).data.map(\.name),
                ["love", "family", "friend", "work"])
            let group = try await app.send(.GET, "/api/relationshiptypegroups/4", headers: account.bearer)
            XCTAssertEqual(
                group.text,
                #"{"data":{"id":4,"object":"relationshiptypegroup","name":"work","delible":false,"#
                    + #""account":{"id":\#(account.id)},"created_at":"2024-05-04T10:06:05Z","#
                    + #""updated_at":"2024-05-04T10:06:05Z"}}"#)
            for path in ["/api/relationshiptypes/28", "/api/relationshiptypes/0", "/api/relationshiptypegroups/5"] {
                let missing = try await app.send(.GET, path, headers: account.bearer)
                XCTAssertEqual(missing.status, .notFound, path)
            }
            // Every type's reverse is one of the list, and the reverse of the reverse is the type.
            for type in RelationshipType.all {
                XCTAssertEqual(type.reverse.reverseName, type.name)
                XCTAssertTrue(RelationshipType.all.contains { $0.name == type.reverseName }, type.name)
            }
        }
    }

    func testRelationshipsTravelInTheSyncFeedAndGoWithEitherContact() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let anna = try await app.makeContact(for: account, ContactDraft(firstName: "Anna"))
            let benUUID = UUID().uuidString.lowercased()
            let relationshipUUID = UUID().uuidString.lowercased()
            // A contact and its relationship made offline, the relationship naming the new contact by uuid.
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [
                     {"id": 1, "type": "contact", "op": "create", "uuid": "\#(benUUID)", "fields": {"first_name": "Ben"}},
                     {"id": 2, "type": "relationship", "op": "create", "uuid": "\#(relationshipUUID)",
                      "fields": {"contact_is_uuid": "\#(benUUID)", "of_contact": \#(anna.id), "relationship_type_id": 2}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            let answer = try pushed.decoded(SyncPushAnswerResource.self)
            XCTAssertEqual(answer.results.map(\.status), [.applied, .applied], pushed.text)

            let pulled = try await app.send(.GET, "/api/sync?types=relationship", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            let records: [RelationshipResource] = feed.changes.compactMap {
                guard case .relationship(let record) = $0.data else { return nil }
                return record
            }
            XCTAssertEqual(records.count, 2, pulled.text)
            let pushedSide = try XCTUnwrap(records.first { $0.uuid == relationshipUUID })
            XCTAssertEqual(pushedSide.contactIs.firstName, "Ben")
            XCTAssertEqual(pushedSide.relationshipType.name, "spouse")
            let shown = try await app.send(.GET, "/api/relationships/\(pushedSide.id)", headers: account.bearer)
            XCTAssertEqual(
                try shown.decoded(DataEnvelope<RelationshipResource>.self).data, pushedSide, "as its own route")

            // Deleting either contact takes both sides, each leaving its tombstone.
            let deleted = try await app.send(.DELETE, "/api/contacts/\(anna.id)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok)
            let after = try await app.send(
                .GET, "/api/sync?types=relationship&cursor=\(feed.cursor)", headers: account.bearer)
            let deletions = try after.decoded(SyncPullResource.self).deletions
            XCTAssertEqual(Set(deletions.compactMap(\.uuid)), Set(records.map(\.uuid)))
            let count = try await app.count(RelationshipsTable.self)
            XCTAssertEqual(count, 0)
        }
    }
}
