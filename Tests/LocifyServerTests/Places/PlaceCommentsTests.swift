import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Comments on places: the API, the place page, the sync feed and who may change a comment.
final class PlaceCommentsTests: XCTestCase {
    private func comments(_ app: Application, _ account: TestAccount, _ path: String) async throws -> PageResource<
        PlaceCommentResource
    > {
        let response = try await app.send(.GET, path, headers: account.bearer)
        XCTAssertEqual(response.status, .ok, "\(path): \(response.text)")
        return try response.decoded(PageResource<PlaceCommentResource>.self)
    }

    func testCommentsAreWrittenListedOldestFirstEditedAndDeletedThroughTheAPI() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let flore = try await app.makePlace(for: account)
            let other = try await app.makePlace(for: account, name: "Les Deux Magots")

            let first = try await app.send(
                .POST, "/api/places/\(flore.id)/comments", headers: account.bearer,
                json: #"{"body":"  Sartre's table, upstairs.\nGo early.  "}"#)
            XCTAssertEqual(first.status, .created, "\(database): \(first.text)")
            let written = try first.decoded(DataEnvelope<PlaceCommentResource>.self).data
            XCTAssertEqual(written.body, "Sartre's table, upstairs.\nGo early.", "trimmed, line breaks kept")
            XCTAssertEqual(written.object, "place_comment")
            XCTAssertEqual(written.placeID, flore.id)
            XCTAssertEqual(written.author, PlaceCommentResource.Author(id: account.id, name: "Ada Lovelace"))
            XCTAssertFalse(written.isEdited)
            XCTAssertEqual(written.createdAt, Timestamp.string(clock.now))
            clock.advance(by: 60)
            let second = try await app.createdID(
                by: account, "/api/placecomments", #"{"place_id":\#(flore.id),"body":"*Not* Markdown"}"#)
            _ = try await app.createdID(
                by: account, "/api/placecomments", #"{"place_id":"\#(other.id)","body":"Across the street"}"#)

            let onFlore = try await comments(app, account, "/api/places/\(flore.id)/comments")
            XCTAssertEqual(onFlore.data.map(\.body), ["Sartre's table, upstairs.\nGo early.", "*Not* Markdown"])
            XCTAssertEqual(onFlore.meta.total, 2)
            let newestFirst = try await comments(app, account, "/api/places/\(flore.id)/comments?sort=-created_at")
            XCTAssertEqual(newestFirst.data.map(\.id), [second, written.id])
            let everything = try await comments(app, account, "/api/placecomments")
            XCTAssertEqual(everything.meta.total, 3)

            clock.advance(by: 60)
            let edited = try await app.send(
                .PUT, "/api/placecomments/\(second)", headers: account.bearer, json: #"{"body":"Plain text."}"#)
            XCTAssertEqual(edited.status, .ok, edited.text)
            let changed = try edited.decoded(DataEnvelope<PlaceCommentResource>.self).data
            XCTAssertEqual(changed.body, "Plain text.")
            XCTAssertTrue(changed.isEdited)
            XCTAssertEqual(changed.updatedAt, Timestamp.string(clock.now))
            let kept = try await app.send(
                .PUT, "/api/placecomments/\(second)", headers: account.bearer, json: #"{"place_id":\#(other.id)}"#)
            XCTAssertEqual(kept.status, .ok, kept.text)
            let stays = try kept.decoded(DataEnvelope<PlaceCommentResource>.self).data
            XCTAssertEqual(stays.body, "Plain text.", "left out: kept")
            XCTAssertEqual(stays.placeID, flore.id, "a comment stays on its place")

            let deleted = try await app.send(.DELETE, "/api/placecomments/\(second)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(second)}"#)
            let gone = try await app.send(.GET, "/api/placecomments/\(second)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
            let left = try await comments(app, account, "/api/places/\(flore.id)/comments")
            XCTAssertEqual(left.data.map(\.id), [written.id])
        }
    }

    func testBadCommentsAreRefusedWithTheirReasonAndChangeNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let place = try await app.makePlace(for: account)
            let comment = try await app.createdID(
                by: account, "/api/places/\(place.id)/comments", #"{"body":"Good coffee"}"#)
            let cases: [(HTTPMethod, String, String, HTTPStatus, String)] = [
                (
                    .POST, "/api/places/\(place.id)/comments", #"{"body":"   "}"#, .unprocessableEntity,
                    "Write the comment."
                ),
                (.POST, "/api/places/\(place.id)/comments", "{}", .unprocessableEntity, "Write the comment."),
                (
                    .POST, "/api/places/\(place.id)/comments",
                    #"{"body":"\#(String(repeating: "é", count: 10_001))"}"#, .unprocessableEntity,
                    "Comment must be at most 10000 characters."
                ),
                (
                    .POST, "/api/places/\(place.id)/comments", #"{"body":"a\u0000b"}"#, .unprocessableEntity,
                    "Comment cannot hold the NUL character"
                ),
                (.POST, "/api/places/\(place.id)/comments", #"{"body":["x"]}"#, .unprocessableEntity, "Comment"),
                (.POST, "/api/places/\(place.id)/comments", "[1]", .badRequest, ""),
                (
                    .POST, "/api/placecomments", #"{"body":"x"}"#, .unprocessableEntity,
                    "Choose the place this comment is about."
                ),
                (
                    .POST, "/api/placecomments", #"{"place_id":999999,"body":"x"}"#, .notFound,
                    "place_id must be one of your places."
                ),
                (.POST, "/api/places/999999/comments", #"{"body":"x"}"#, .notFound, ""),
                (.PUT, "/api/placecomments/\(comment)", #"{"body":""}"#, .unprocessableEntity, "Write the comment."),
                (.PUT, "/api/placecomments/999999", #"{"body":"x"}"#, .notFound, ""),
                (.DELETE, "/api/placecomments/999999", "", .notFound, ""),
            ]
            for (method, path, json, status, message) in cases {
                let response = try await app.send(method, path, headers: account.bearer, json: json)
                XCTAssertEqual(response.status, status, "\(database): \(method) \(path) \(json): \(response.text)")
                XCTAssertTrue(response.text.contains(#""error""#), "\(path): the error envelope: \(response.text)")
                if !message.isEmpty {
                    XCTAssertTrue(response.text.contains(message), "\(path) \(json): \(response.text)")
                }
            }
            let all = try await comments(app, account, "/api/placecomments")
            XCTAssertEqual(all.data.map(\.body), ["Good coffee"], "\(database): nothing changed")
        }
    }

    /// Another account neither sees nor changes an account's comments, and cannot comment on its places.
    func testAnotherAccountsCommentsAreNotFoundAndUntouched() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let place = try await app.makePlace(for: account)
            let comment = try await app.createdID(
                by: account, "/api/places/\(place.id)/comments", #"{"body":"Mine"}"#)
            let stranger = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            for (method, path, json) in [
                (HTTPMethod.GET, "/api/placecomments/\(comment)", ""),
                (.PUT, "/api/placecomments/\(comment)", #"{"body":"Hers"}"#),
                (.DELETE, "/api/placecomments/\(comment)", ""),
                (.GET, "/api/places/\(place.id)/comments", ""),
                (.POST, "/api/places/\(place.id)/comments", #"{"body":"Hers"}"#),
                (.POST, "/api/placecomments", #"{"place_id":\#(place.id),"body":"Hers"}"#),
            ] {
                let response = try await app.send(method, path, headers: stranger.bearer, json: json)
                XCTAssertEqual(response.status, .notFound, "\(database): \(method) \(path): \(response.text)")
            }
            let theirs = try await comments(app, stranger, "/api/placecomments")
            XCTAssertEqual(theirs.meta.total, 0)
            let browser = WebClient(app: app)
            _ = try await browser.register(name: "Eve", email: "eve2@example.com")
            try await browser.get("/places")
            for path in [
                "/places/comments/\(comment)", "/places/comments/\(comment)/delete", "/places/\(place.id)/comments",
            ] {
                let response = try await browser.post(path, form: ["body": "Hers"])
                XCTAssertEqual(response.status, .notFound, "\(database): \(path)")
            }
            let mine = try await comments(app, account, "/api/placecomments")
            XCTAssertEqual(mine.data.map(\.body), ["Mine"], "\(database): untouched")
        }
    }

    /// Only a comment's author changes it, whoever owns the place: the rule shared lists rely on.
    func testOnlyTheAuthorEditsOrDeletesAComment() async throws {
        try await forEachDatabase { app, _, database in
            let owner = try await app.makeAccount()
            let friend = try await app.makeAccount(email: "grace@example.com", name: "Grace Hopper")
            let place = try await app.makePlace(for: owner)
            let written = try await PlaceCommentService(
                database: app.db, ownerID: owner.id, authorID: friend.id, dependencies: app.dependencies
            ).create(placeID: place.id, PlaceCommentDraft(body: "Try the onion soup"))
            let shown = try await app.send(.GET, "/api/placecomments/\(written.id)", headers: owner.bearer)
            XCTAssertEqual(
                try shown.decoded(DataEnvelope<PlaceCommentResource>.self).data.author,
                PlaceCommentResource.Author(id: friend.id, name: "Grace Hopper"), "\(database)")
            for (method, json) in [(HTTPMethod.PUT, #"{"body":"Changed"}"#), (.DELETE, "")] {
                let refused = try await app.send(
                    method, "/api/placecomments/\(written.id)", headers: owner.bearer, json: json)
                XCTAssertEqual(refused.status, .forbidden, "\(database): \(method): \(refused.text)")
                XCTAssertTrue(refused.text.contains("Only the person who wrote a comment can change or delete it."))
            }
            let page = try await app.send(.GET, "/api/placecomments/\(written.id)", headers: owner.bearer)
            XCTAssertEqual(
                try page.decoded(DataEnvelope<PlaceCommentResource>.self).data.body, "Try the onion soup",
                "\(database): unchanged")
        }
    }

    func testThePlacePageShowsCommentsAndTakesNewOnes() async throws {
        try await forEachDatabase { app, clock, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let api = try await app.apiAccount(email: "grace@example.com")
            let place = try await app.makePlace(for: api)
            let path = "/places/\(place.id)"
            var page = try await browser.get(path)
            XCTAssertTrue(page.text.contains(#"<h2 id="comments-heading">Comments</h2>"#), "\(database)")
            XCTAssertTrue(page.text.contains("No comments yet."))
            XCTAssertTrue(page.text.contains(#"<form method="post" action="\#(path)/comments""#))

            let refused = try await browser.post(path + "/comments", form: ["body": "  "])
            XCTAssertEqual(refused.status, .unprocessableEntity)
            XCTAssertTrue(refused.text.contains(#"<p class="error" id="new-comment-error">Write the comment.</p>"#))

            let added = try await browser.post(path + "/comments", form: ["body": "<b>Best</b> croissants\nin town"])
            XCTAssertEqual(added.status, .seeOther, added.text)
            XCTAssertEqual(added.headers.first(name: .location), path + "#comments")
            clock.advance(by: 86_400)
            try await browser.post(path + "/comments", form: ["body": "Closed on Mondays"])
            page = try await browser.get(path)
            XCTAssertTrue(page.text.contains("&lt;b&gt;Best&lt;/b&gt; croissants\nin town"), "plain text, escaped")
            let older = try XCTUnwrap(page.text.range(of: "croissants"))
            let newer = try XCTUnwrap(page.text.range(of: "Closed on Mondays"))
            XCTAssertLessThan(older.lowerBound, newer.lowerBound, "oldest first")
            XCTAssertTrue(page.text.contains("<strong>Grace Hopper</strong>, \(Timestamp.day(clock.now))"))
            XCTAssertFalse(page.text.contains("No comments yet."))

            let listed = try await comments(app, api, "/api/places/\(place.id)/comments")
            let first = try XCTUnwrap(listed.data.first)
            let badEdit = try await browser.post("/places/comments/\(first.id)", form: ["body": ""])
            XCTAssertEqual(badEdit.status, .unprocessableEntity)
            XCTAssertTrue(
                badEdit.text.contains(
                    #"<p class="error" id="comment-\#(first.id)-body-error">Write the comment.</p>"#), badEdit.text)
            XCTAssertFalse(badEdit.text.contains(#"id="new-comment-error""#), "not the new comment's form")
            let edited = try await browser.post("/places/comments/\(first.id)", form: ["body": "Best croissants"])
            XCTAssertEqual(edited.status, .seeOther)
            page = try await browser.get(path)
            XCTAssertTrue(page.text.contains("<p class=\"comment-body\">Best croissants</p>"))
            XCTAssertTrue(page.text.contains("(edited)"))
            let deleted = try await browser.post("/places/comments/\(first.id)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            page = try await browser.get(path)
            XCTAssertFalse(page.text.contains("Best croissants"))
            XCTAssertTrue(page.text.contains("Closed on Mondays"))
        }
    }

    /// Comments travel in the sync feed, are pushed naming a place made offline, and go with their place,
    /// each leaving its tombstone.
    func testCommentsTravelInTheSyncFeedAndGoWithTheirPlace() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let categoryID = try await app.placeCategories(of: account)[0].id
            let place = UUID().uuidString.lowercased()
            let comment = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [
                     {"id": 1, "type": "place", "op": "create", "uuid": "\#(place)",
                      "fields": {"name": "Flore", "latitude": 48.854, "longitude": 2.333, "category_id": \#(categoryID)}},
                     {"id": 2, "type": "place_comment", "op": "create", "uuid": "\#(comment)",
                      "fields": {"place_uuid": "\#(place)", "body": "Written on the train"}},
                     {"id": 3, "type": "place_comment", "op": "create", "uuid": "\#(UUID().uuidString)",
                      "fields": {"place_uuid": "\#(place)", "body": " "}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            let answer = try pushed.decoded(SyncPushAnswerResource.self)
            XCTAssertEqual(answer.results.map(\.status), [.applied, .applied, .rejected], pushed.text)
            let pulled = try await app.send(.GET, "/api/sync?types=place,place_comment", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["place", "place_comment"], pulled.text)
            guard case .placeComment(let record) = feed.changes[1].data else { return XCTFail(pulled.text) }
            XCTAssertEqual(record.uuid, comment)
            XCTAssertEqual(record.body, "Written on the train")

            let placeID = feed.changes[0].id
            let deleted = try await app.send(.DELETE, "/api/places/\(placeID)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok, deleted.text)
            let after = try await app.send(
                .GET, "/api/sync?types=place,place_comment&cursor=\(feed.cursor)", headers: account.bearer)
            let gone = try after.decoded(SyncPullResource.self)
            XCTAssertEqual(Set(gone.deletions.map(\.uuid)), [place, comment], after.text)
            XCTAssertEqual(Set(gone.deletions.map(\.revision)).count, 1, "one revision: \(after.text)")
            let left = try await app.count(PlaceCommentsTable.self)
            XCTAssertEqual(left, 0)
        }
    }
}
