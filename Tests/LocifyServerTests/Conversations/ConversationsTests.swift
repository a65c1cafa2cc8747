import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/conversations` and their messages: Monica's shapes, messages in the order written, a message's
/// change as a change of its conversation in the sync feed, validation, ownership, and the contact page.
final class ConversationsTests: XCTestCase {
    private func kinds(_ app: Application, _ account: TestAccount) async throws -> [ContactFieldTypeResource] {
        let response = try await app.send(.GET, "/api/contactfieldtypes", headers: account.bearer)
        return try response.decoded(PageResource<ContactFieldTypeResource>.self).data
    }

    func testAConversationsShapeMatchesMonicasWithItsMessages() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let accountKinds = try await kinds(app, account)
            let whatsapp = try XCTUnwrap(accountKinds.first { $0.name == "Whatsapp" })
            let response = try await app.send(
                .POST, "/api/conversations", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "happened_at": "2024-05-01 18:30:00", "contact_field_type_id": \#(whatsapp.id)}"#
            )
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<ConversationResource>.self).data
            let adaJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            let kindJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(whatsapp), as: UTF8.self)
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"conversation","#
                    + #""happened_at":"2024-05-01T18:30:00Z","messages":[],"contact_field_type":\#(kindJSON),"#
                    + #""url":"http://127.0.0.1:8080/api/conversations/\#(made.id)","account":{"id":\#(account.id)},"#
                    + #""contact":\#(adaJSON),"created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","#
                    + #""contact_id":\#(ada.id)}}"#)

            // Messages: answered with the whole conversation (200), in the order written.
            clock.advance(by: 60)
            let second = try await app.send(
                .POST, "/api/conversations/\(made.id)/messages", headers: account.bearer,
                json: #"{"content": "See you at eight", "written_at": "2024-05-01 18:35:00", "written_by_me": false}"#)
            XCTAssertEqual(second.status, .ok, second.text)
            let first = try await app.send(
                .POST, "/api/conversations/\(made.id)/messages", headers: account.bearer,
                json: #"{"content": "Dinner?", "written_at": "2024-05-01 18:31:00", "written_by_me": "1"}"#)
            let conversation = try first.decoded(DataEnvelope<ConversationResource>.self).data
            XCTAssertEqual(conversation.messages.map(\.content), ["Dinner?", "See you at eight"])
            XCTAssertEqual(conversation.messages.map(\.writtenByMe), [true, false])
            XCTAssertEqual(conversation.updatedAt, "2024-05-04T10:07:05Z", "a message stamps its conversation")
            let message = conversation.messages[0]
            let messageJSON = String(
                decoding: try OrderedJSONEncoder().encodedBytes(message), as: UTF8.self)
            XCTAssertEqual(
                messageJSON,
                #"{"id":\#(message.id),"uuid":"\#(message.uuid)","object":"message","content":"Dinner?","#
                    + #""written_at":"2024-05-01T18:31:00Z","written_by_me":true,"account":{"id":\#(account.id)},"#
                    + #""contact":\#(adaJSON),"conversation":{"id":\#(made.id)},"#
                    + #""created_at":"2024-05-04T10:07:05Z","updated_at":"2024-05-04T10:07:05Z"}"#)

            // A message changed, then deleted; the conversation moved in time, its means kept.
            let edited = try await app.send(
                .PUT, "/api/conversations/\(made.id)/messages/\(message.id)", headers: account.bearer,
                json: #"{"content": "Dinner at eight?"}"#)
            XCTAssertEqual(edited.status, .ok, edited.text)
            XCTAssertEqual(
                try edited.decoded(DataEnvelope<ConversationResource>.self).data.messages.map(\.content),
                ["Dinner at eight?", "See you at eight"])
            let removed = try await app.send(
                .DELETE, "/api/conversations/\(made.id)/messages/\(message.id)", headers: account.bearer)
            XCTAssertEqual(removed.text, #"{"deleted":true,"id":\#(message.id)}"#)
            let moved = try await app.send(
                .PUT, "/api/conversations/\(made.id)", headers: account.bearer, json: #"{"happened_at": "2024-04-30"}"#)
            let after = try moved.decoded(DataEnvelope<ConversationResource>.self).data
            XCTAssertEqual(after.happenedAt, "2024-04-30T00:00:00Z")
            XCTAssertEqual(after.contactFieldType?.id, whatsapp.id)
            XCTAssertEqual(after.messages.count, 1)
            let listed = try await app.send(.GET, "/api/contacts/\(ada.id)/conversations", headers: account.bearer)
            XCTAssertEqual(try listed.decoded(PageResource<ConversationResource>.self).data.map(\.id), [made.id])

            // A deleted means reads as none.
            let deletedKind = try await app.send(
                .DELETE, "/api/contactfieldtypes/\(whatsapp.id)", headers: account.bearer)
            XCTAssertEqual(deletedKind.status, .ok, deletedKind.text)
            let shown = try await app.send(.GET, "/api/conversations/\(made.id)", headers: account.bearer)
            XCTAssertTrue(shown.text.contains(#""contact_field_type":null"#), shown.text)
        }
    }

    func testBadConversationsAndMessagesAreRefusedAndAnotherAccountsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let accountKinds = try await kinds(app, account)
            let otherKinds = try await kinds(app, other)
            let email = try XCTUnwrap(accountKinds.first)
            let theirKind = try XCTUnwrap(otherKinds.first)
            let refused = try await app.send(.POST, "/api/conversations", headers: account.bearer, json: "{}")
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertEqual(
                try refused.decoded(ErrorEnvelope.self).error.message,
                .list([
                    "Choose the contact this conversation is about.", "The date of the conversation is required.",
                    "Choose how you talked.",
                ]))
            let foreignKind = try await app.send(
                .POST, "/api/conversations", headers: account.bearer,
                json:
                    #"{"contact_id": \#(ada.id), "happened_at": "2024-05-01", "contact_field_type_id": \#(theirKind.id)}"#
            )
            XCTAssertEqual(foreignKind.status, .notFound, "\(database): \(foreignKind.text)")
            let made = try await app.send(
                .POST, "/api/contacts/\(ada.id)/conversations", headers: account.bearer,
                json: #"{"happened_at": "2024-05-01", "contact_field_type_id": \#(email.id)}"#)
            XCTAssertEqual(made.status, .created, made.text)
            let conversation = try made.decoded(DataEnvelope<ConversationResource>.self).data
            let badMessage = try await app.send(
                .POST, "/api/conversations/\(conversation.id)/messages", headers: account.bearer,
                json: #"{"content": " "}"#)
            XCTAssertEqual(
                try badMessage.decoded(ErrorEnvelope.self).error.message,
                .list([
                    "The message is required.", "When the message was written is required.",
                    "Say who wrote the message (written_by_me).",
                ]))
            for (method, path, json) in [
                (HTTPMethod.GET, "/api/conversations/\(conversation.id)", nil as String?),
                (.DELETE, "/api/conversations/\(conversation.id)", nil),
                (
                    .POST, "/api/conversations/\(conversation.id)/messages",
                    #"{"content": "Hi", "written_at": "2024-05-01", "written_by_me": true}"#
                ),
                (.GET, "/api/contacts/\(ada.id)/conversations", nil),
            ] {
                let foreign = try await app.send(method, path, headers: other.bearer, json: json)
                XCTAssertEqual(foreign.status, .notFound, "\(method) \(path): \(foreign.text)")
            }
            let messages = try await app.count(ConversationMessagesTable.self)
            XCTAssertEqual(messages, 0)
        }
    }

    func testConversationsTravelInTheSyncFeedWithTheirMessages() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let accountKinds = try await kinds(app, account)
            let email = try XCTUnwrap(accountKinds.first)
            let uuid = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [{"id": 1, "type": "conversation", "op": "create", "uuid": "\#(uuid)",
                     "fields": {"contact_id": \#(ada.id), "happened_at": "2024-05-01", "contact_field_type_id": \#(email.id)}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            let pulled = try await app.send(.GET, "/api/sync?types=conversation", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            guard let change = feed.changes.first, case .conversation(let record) = change.data else {
                return XCTFail("not a conversation: \(pulled.text)")
            }
            XCTAssertEqual(record.uuid, uuid)
            // A new message is a change of its conversation, which comes again with it.
            _ = try await app.send(
                .POST, "/api/conversations/\(record.id)/messages", headers: account.bearer,
                json: #"{"content": "Hello", "written_at": "2024-05-01", "written_by_me": true}"#)
            let again = try await app.send(
                .GET, "/api/sync?types=conversation&cursor=\(feed.cursor)", headers: account.bearer)
            let next = try again.decoded(SyncPullResource.self)
            guard let update = next.changes.first, case .conversation(let updated) = update.data else {
                return XCTFail("no change: \(again.text)")
            }
            XCTAssertEqual(updated.messages.map(\.content), ["Hello"])
            _ = try await app.send(.DELETE, "/api/contacts/\(ada.id)", headers: account.bearer)
            let gone = try await app.send(
                .GET, "/api/sync?types=conversation&cursor=\(next.cursor)", headers: account.bearer)
            XCTAssertEqual(try gone.decoded(SyncPullResource.self).deletions.map(\.uuid), [uuid])
            let messages = try await app.count(ConversationMessagesTable.self)
            XCTAssertEqual(messages, 0)
        }
    }

    func testConversationsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Marie", "last_name": "Curie"])
            let page = try XCTUnwrap(created.headers.first(name: .location))
            var detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(#"aria-labelledby="conversations-heading" id="conversations""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No conversations yet."))

            let refused = try await browser.post(
                page + "/conversations", form: ["happened_on": "2024-05-01", "content": "Kept as typed"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(refused.text.contains("Choose how you talked."), refused.text)
            XCTAssertTrue(refused.text.contains(">Kept as typed</textarea>"))
            let none = try await app.count(ConversationsTable.self)
            XCTAssertEqual(none, 0, "nothing saved")

            let api = try await app.apiAccount(email: "grace@example.com")
            let apiKinds = try await kinds(app, api)
            let phone = try XCTUnwrap(apiKinds.first { $0.name == "Phone" })
            let started = try await browser.post(
                page + "/conversations",
                form: [
                    "contact_field_type_id": String(phone.id), "happened_on": "2024-05-01", "content": "Polonium!",
                    "written_by_me": "0",
                ])
            XCTAssertEqual(started.status, .seeOther, started.text)
            let listed = try await app.send(.GET, "/api/conversations", headers: api.bearer)
            let conversation = try XCTUnwrap(try listed.decoded(PageResource<ConversationResource>.self).data.first)
            let replied = try await browser.post(
                "/conversations/\(conversation.id)/messages", form: ["content": "Well done", "written_by_me": "1"])
            XCTAssertEqual(replied.status, .seeOther, replied.text)
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("<strong>1 May 2024 · by Phone</strong>"), detail.text)
            let hers = try XCTUnwrap(
                detail.text.range(of: "Marie, 1 May 2024:</span> <span class=\"note-body\">Polonium!"))
            let mine = try XCTUnwrap(detail.text.range(of: "<span class=\"note-body\">Well done"))
            XCTAssertLessThan(hers.lowerBound, mine.lowerBound)

            // When and how it went, changed from its Edit menu; a refusal changes nothing.
            let email = try XCTUnwrap(apiKinds.first { $0.name == "Email" })
            XCTAssertTrue(
                detail.text.contains(
                    #"id="conversation-\#(conversation.id)-day" name="happened_on" type="date" autocomplete="off" value="2024-05-01""#
                ), detail.text)
            let changed = try await browser.post(
                "/conversations/\(conversation.id)",
                form: ["contact_field_type_id": String(email.id), "happened_on": "2024-05-02"])
            XCTAssertEqual(changed.status, .seeOther, changed.text)
            XCTAssertEqual(changed.headers.first(name: .location), page + "#conversation-\(conversation.id)")
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("<strong>2 May 2024 · by Email</strong>"), detail.text)
            let badDay = try await browser.post(
                "/conversations/\(conversation.id)",
                form: ["contact_field_type_id": String(phone.id), "happened_on": "2024-02-30"])
            XCTAssertEqual(badDay.status, .unprocessableEntity, badDay.text)
            XCTAssertTrue(badDay.text.contains(#"id="conversation-\#(conversation.id)-kind-error""#), badDay.text)
            XCTAssertTrue(badDay.text.contains(#"value="2024-02-30""#), "what was typed stays")
            detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains("<strong>2 May 2024 · by Email</strong>"), "unchanged")

            // A message deleted on its own; the conversation keeps the other.
            let stored = try await app.send(.GET, "/api/conversations/\(conversation.id)", headers: api.bearer)
                .decoded(DataEnvelope<ConversationResource>.self).data
            let reply = try XCTUnwrap(stored.messages.last)
            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            let foreign = try await stranger.post(
                "/conversations/\(conversation.id)/messages/\(reply.id)/delete", form: [:])
            XCTAssertEqual(foreign.status, .notFound)
            let foreignEdit = try await stranger.post(
                "/conversations/\(conversation.id)", form: ["contact_field_type_id": "1", "happened_on": "2024-01-01"])
            XCTAssertEqual(foreignEdit.status, .notFound)
            _ = try await browser.get(page)
            let removed = try await browser.post(
                "/conversations/\(conversation.id)/messages/\(reply.id)/delete", form: [:])
            XCTAssertEqual(removed.status, .seeOther)
            let remaining = try await app.send(.GET, "/api/conversations/\(conversation.id)", headers: api.bearer)
                .decoded(DataEnvelope<ConversationResource>.self).data
            XCTAssertEqual(remaining.messages.map(\.content), ["Polonium!"])

            let deleted = try await browser.post("/conversations/\(conversation.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(ConversationsTable.self)
            XCTAssertEqual(left, 0)
        }
    }
}
