import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// Categories shared with other accounts and through public links: what the owner, a reader, an editor
/// and a stranger may each do, through every route of places, their pictures and their comments.
final class SharedCategoriesTests: XCTestCase {
    /// Ada owns two categories, one shared with Rob (to read) and Eda (to edit); Eve is a stranger.
    private struct Household {
        let owner: TestAccount
        let reader: TestAccount
        let editor: TestAccount
        let stranger: TestAccount
        let shared: PlaceCategoryResource
        let unshared: PlaceCategoryResource
        let place: PlaceResource
        let privatePlace: PlaceResource
        let photoID: Int
        let commentID: Int
        let readerShareID: Int
    }

    private func household(_ app: Application) async throws -> Household {
        let owner = try await app.makeAccount()
        let reader = try await app.makeAccount(email: "rob@example.com", name: "Rob")
        let editor = try await app.makeAccount(email: "eda@example.com", name: "Eda")
        let stranger = try await app.makeAccount(email: "eve@example.com", name: "Eve")
        let categories = try await app.placeCategories(of: owner)
        let (shared, unshared) = (categories[0], categories[1])
        let place = try await app.makePlace(for: owner)
        let privateCreated = try await app.send(
            .POST, "/api/places", headers: owner.bearer,
            json: #"{"name":"Secret garden","latitude":48.85,"longitude":2.35,"category_id":\#(unshared.id)}"#)
        let privatePlace = try privateCreated.decoded(DataEnvelope<PlaceResource>.self).data
        let (body, type) = TestImages.multipart(TestImages.gif, filename: "terrace.gif")
        var headers = owner.bearer
        headers.replaceOrAdd(name: .contentType, value: type)
        let uploaded = try await app.send(.POST, "/api/places/\(place.id)/photos", headers: headers, body: body)
        XCTAssertEqual(uploaded.status, .created, uploaded.text)
        let photoID = try uploaded.decoded(DataEnvelope<PlacePhotoResource>.self).data.id
        let commentID = try await app.createdID(
            by: owner, "/api/places/\(place.id)/comments", #"{"body":"The owner's word"}"#)
        let readerShareID = try await app.createdID(
            by: owner, "/api/categories/\(shared.id)/shares", #"{"email":"ROB@example.com "}"#)
        _ = try await app.createdID(
            by: owner, "/api/categories/\(shared.id)/shares", #"{"email":"eda@example.com","can_edit":true}"#)
        return Household(
            owner: owner, reader: reader, editor: editor, stranger: stranger, shared: shared, unshared: unshared,
            place: place, privatePlace: privatePlace, photoID: photoID, commentID: commentID,
            readerShareID: readerShareID)
    }

    func testSharingByEmailListsTheCategoryForTheMemberWithItsOwnerAndTheirAccess() async throws {
        try await forEachDatabase { app, _, database in
            let home = try await household(app)
            let shares = try await app.send(
                .GET, "/api/categories/\(home.shared.id)/shares", headers: home.owner.bearer)
            let members = try shares.decoded(DataEnvelope<[CategoryShareResource]>.self).data
            XCTAssertEqual(members.map(\.member.name), ["Eda", "Rob"], "\(database): \(shares.text)")
            XCTAssertEqual(members.map(\.canEdit), [true, false])
            XCTAssertEqual(members[1].member.email, "rob@example.com", "the address as the account has it")
            XCTAssertEqual(members[1].object, "category_share")

            let again = try await app.send(
                .POST, "/api/categories/\(home.shared.id)/shares", headers: home.owner.bearer,
                json: #"{"email":"rob@example.com","can_edit":true}"#)
            XCTAssertEqual(again.status, .ok, "sharing again changes the access: \(again.text)")
            XCTAssertEqual(try again.decoded(DataEnvelope<CategoryShareResource>.self).data.id, home.readerShareID)
            let back = try await app.send(
                .PUT, "/api/categories/\(home.shared.id)/shares/\(home.readerShareID)", headers: home.owner.bearer,
                json: #"{"can_edit":false}"#)
            XCTAssertEqual(back.status, .ok, back.text)
            XCTAssertFalse(try back.decoded(DataEnvelope<CategoryShareResource>.self).data.canEdit)

            let seen = try await app.send(.GET, "/api/sharedcategories", headers: home.reader.bearer)
            let shared = try seen.decoded(DataEnvelope<[SharedCategoryResource]>.self).data
            XCTAssertEqual(shared.count, 1, seen.text)
            XCTAssertEqual(shared[0].id, home.shared.id)
            XCTAssertEqual(shared[0].owner, SharedCategoryResource.Owner(id: home.owner.id, name: "Ada Lovelace"))
            XCTAssertFalse(shared[0].canEdit)
            XCTAssertEqual(shared[0].placesCount, 1)
            let listed = try await app.send(
                .GET, "/api/places?category_id=\(home.shared.id)", headers: home.reader.bearer)
            let places = try listed.decoded(PageResource<PlaceResource>.self)
            XCTAssertEqual(places.data.map(\.id), [home.place.id], listed.text)
            let unshared = try await app.send(
                .GET, "/api/places?category_id=\(home.unshared.id)", headers: home.reader.bearer)
            XCTAssertEqual(try unshared.decoded(PageResource<PlaceResource>.self).meta.total, 0, unshared.text)
            let own = try await app.places(of: home.reader)
            XCTAssertEqual(own.count, 0, "a member's own list holds only their places")
            let eve = try await app.send(.GET, "/api/sharedcategories", headers: home.stranger.bearer)
            XCTAssertEqual(try eve.decoded(DataEnvelope<[SharedCategoryResource]>.self).data.count, 0)

            let refused: [(String, HTTPStatus, String)] = [
                // No account behind the address is a reference to something missing, as a missing id is.
                (#"{"email":"nobody@example.com"}"#, .notFound, "No account on this server uses nobody@example.com"),
                (#"{"email":"ada@example.com"}"#, .conflict, "your own address"),
                (#"{"email":"not an address"}"#, .unprocessableEntity, "Email must be an address"),
                (#"{}"#, .unprocessableEntity, "Write the e-mail address"),
                (
                    #"{"email":"eve@example.com","can_edit":"maybe"}"#, .unprocessableEntity,
                    "Can edit must be true or false"
                ),
            ]
            for (json, status, message) in refused {
                let response = try await app.send(
                    .POST, "/api/categories/\(home.shared.id)/shares", headers: home.owner.bearer, json: json)
                XCTAssertEqual(response.status, status, "\(database): \(json): \(response.text)")
                XCTAssertTrue(response.text.contains(message), "\(json): \(response.text)")
            }
            let after = try await app.send(
                .GET, "/api/categories/\(home.shared.id)/shares", headers: home.owner.bearer)
            XCTAssertEqual(try after.decoded(DataEnvelope<[CategoryShareResource]>.self).data.count, 2, "unchanged")
        }
    }

    func testAReaderReadsAndCommentsAndAnEditorAlsoChangesPlacesWhichStayTheOwners() async throws {
        try await forEachDatabase { app, _, database in
            let home = try await household(app)
            let place = "/api/places/\(home.place.id)"
            let readerSees = try await app.send(.GET, place, headers: home.reader.bearer)
            XCTAssertEqual(readerSees.status, .ok, readerSees.text)
            let comment = try await app.send(
                .POST, place + "/comments", headers: home.reader.bearer, json: #"{"body":"Rob was here"}"#)
            XCTAssertEqual(comment.status, .created, "\(database): \(comment.text)")
            let written = try comment.decoded(DataEnvelope<PlaceCommentResource>.self).data
            XCTAssertEqual(written.author, PlaceCommentResource.Author(id: home.reader.id, name: "Rob"))
            XCTAssertEqual(written.account.id, home.owner.id, "the owner's record, the member its author")
            let ownerEdits = try await app.send(
                .PUT, "/api/placecomments/\(written.id)", headers: home.owner.bearer, json: #"{"body":"Not his"}"#)
            XCTAssertEqual(ownerEdits.status, .forbidden, "only the author changes a comment")
            let readerEdits = try await app.send(
                .PUT, "/api/placecomments/\(written.id)", headers: home.reader.bearer, json: #"{"body":"Rob again"}"#)
            XCTAssertEqual(readerEdits.status, .ok, readerEdits.text)
            let readerWrites = try await app.send(
                .PUT, place, headers: home.reader.bearer, json: #"{"name":"Rob's cafe"}"#)
            XCTAssertEqual(readerWrites.status, .forbidden, readerWrites.text)
            XCTAssertTrue(readerWrites.text.contains("shared with you to read"), readerWrites.text)

            let renamed = try await app.send(.PUT, place, headers: home.editor.bearer, json: #"{"name":"Flore"}"#)
            XCTAssertEqual(renamed.status, .ok, renamed.text)
            XCTAssertEqual(try renamed.decoded(DataEnvelope<PlaceResource>.self).data.name, "Flore")
            let moved = try await app.send(
                .PUT, place, headers: home.editor.bearer, json: #"{"category_id":\#(home.unshared.id)}"#)
            XCTAssertEqual(moved.status, .notFound, "not into a category out of her sight: \(moved.text)")
            let added = try await app.send(
                .POST, "/api/places", headers: home.editor.bearer,
                json: #"{"name":"Eda's find","latitude":48.86,"longitude":2.34,"category_id":\#(home.shared.id)}"#)
            XCTAssertEqual(added.status, .created, added.text)
            let made = try added.decoded(DataEnvelope<PlaceResource>.self).data
            let ownerSees = try await app.send(.GET, "/api/places/\(made.id)", headers: home.owner.bearer)
            XCTAssertEqual(ownerSees.status, .ok, "the place is the owner's: \(ownerSees.text)")
            let readerAdds = try await app.send(
                .POST, "/api/places", headers: home.reader.bearer,
                json: #"{"name":"Rob's find","latitude":48.86,"longitude":2.34,"category_id":\#(home.shared.id)}"#)
            XCTAssertEqual(readerAdds.status, .forbidden, readerAdds.text)
            let favorite = try await app.send(.PUT, "/api/places/\(made.id)/favorite", headers: home.editor.bearer)
            XCTAssertEqual(favorite.status, .forbidden, "a favorite is the owner's own mark")
            let removed = try await app.send(.DELETE, "/api/places/\(made.id)", headers: home.editor.bearer)
            XCTAssertEqual(removed.status, .ok, removed.text)
            let ownersList = try await app.places(of: home.owner)
            XCTAssertEqual(ownersList.map(\.name), ["Flore", "Secret garden"], "\(database)")
            let editorsOwn = try await app.places(of: home.editor)
            XCTAssertEqual(editorsOwn.count, 0, "nothing became the editor's")

            // The owner's feed carries the member's comment and the editor's changes; the members' feeds
            // carry nothing of the owner's.
            let ownersFeed = try await app.send(.GET, "/api/sync?types=place,place_comment", headers: home.owner.bearer)
            let feed = try ownersFeed.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.filter { $0.type == "place_comment" }.count, 2, ownersFeed.text)
            for member in [home.reader, home.editor, home.stranger] {
                let theirs = try await app.send(
                    .GET, "/api/sync?types=place,place_comment,place_photo,category", headers: member.bearer)
                let changes = try theirs.decoded(SyncPullResource.self).changes
                XCTAssertFalse(changes.contains { $0.type != "category" }, "\(database): \(theirs.text)")
            }
        }
    }

    /// Every route that reaches a place, its pictures, its comments or a category's sharing, tried by a
    /// stranger, a reader and an editor: the answer each must get, and nothing changed by a refused one.
    func testEveryRouteAnswersAStrangerAReaderAndAnEditorByTheirRights() async throws {
        try await forEachDatabase { app, _, database in
            let home = try await household(app)
            let place = "/api/places/\(home.place.id)"
            let category = "/api/categories/\(home.shared.id)"
            let share = "\(category)/shares/\(home.readerShareID)"
            let gif = TestImages.multipart(TestImages.gif, filename: "mine.gif")
            struct Case {
                let method: HTTPMethod
                let path: String
                let json: String?
                var upload = false
                /// Stranger, reader, editor.
                let expected: (HTTPStatus, HTTPStatus, HTTPStatus)
            }
            let cases: [Case] = [
                Case(method: .GET, path: place, json: nil, expected: (.notFound, .ok, .ok)),
                Case(method: .PUT, path: place, json: #"{"notes":"x"}"#, expected: (.notFound, .forbidden, .ok)),
                Case(method: .PUT, path: place + "/favorite", json: nil, expected: (.notFound, .forbidden, .forbidden)),
                Case(
                    method: .DELETE, path: place + "/favorite", json: nil,
                    expected: (.notFound, .forbidden, .forbidden)),
                Case(method: .GET, path: place + "/photos", json: nil, expected: (.notFound, .ok, .ok)),
                Case(
                    method: .POST, path: place + "/photos", json: nil, upload: true,
                    expected: (.notFound, .forbidden, .created)),
                Case(
                    method: .GET, path: "/api/placephotos/\(home.photoID)", json: nil, expected: (.notFound, .ok, .ok)),
                Case(
                    method: .PUT, path: "/api/placephotos/\(home.photoID)", json: #"{"position":1}"#,
                    expected: (.notFound, .forbidden, .ok)),
                Case(method: .GET, path: place + "/comments", json: nil, expected: (.notFound, .ok, .ok)),
                Case(
                    method: .POST, path: place + "/comments", json: #"{"body":"Mine"}"#,
                    expected: (.notFound, .created, .created)),
                Case(
                    method: .POST, path: "/api/placecomments", json: #"{"place_id":\#(home.place.id),"body":"Mine"}"#,
                    expected: (.notFound, .created, .created)),
                Case(
                    method: .GET, path: "/api/placecomments/\(home.commentID)", json: nil,
                    expected: (.notFound, .ok, .ok)),
                Case(
                    method: .PUT, path: "/api/placecomments/\(home.commentID)", json: #"{"body":"Mine"}"#,
                    expected: (.notFound, .forbidden, .forbidden)),
                Case(
                    method: .DELETE, path: "/api/placecomments/\(home.commentID)", json: nil,
                    expected: (.notFound, .forbidden, .forbidden)),
                Case(
                    method: .GET, path: "/api/places/\(home.privatePlace.id)", json: nil,
                    expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .PUT, path: "/api/places/\(home.privatePlace.id)", json: #"{"notes":"x"}"#,
                    expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .GET, path: "/api/places/\(home.privatePlace.id)/comments", json: nil,
                    expected: (.notFound, .notFound, .notFound)),
                Case(method: .GET, path: category + "/shares", json: nil, expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .POST, path: category + "/shares", json: #"{"email":"eve@example.com"}"#,
                    expected: (.notFound, .notFound, .notFound)),
                Case(method: .GET, path: share, json: nil, expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .PUT, path: share, json: #"{"can_edit":true}"#, expected: (.notFound, .notFound, .notFound)),
                Case(method: .DELETE, path: share, json: nil, expected: (.notFound, .notFound, .notFound)),
                Case(method: .POST, path: category + "/link", json: nil, expected: (.notFound, .notFound, .notFound)),
                Case(method: .GET, path: category + "/link", json: nil, expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .PUT, path: category, json: #"{"name":"Mine"}"#, expected: (.notFound, .notFound, .notFound)
                ),
                Case(method: .DELETE, path: category, json: nil, expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .GET, path: "/api/sharedcategories/\(home.shared.id)", json: nil,
                    expected: (.notFound, .ok, .ok)),
                Case(
                    method: .GET, path: "/api/sharedcategories/\(home.unshared.id)", json: nil,
                    expected: (.notFound, .notFound, .notFound)),
                Case(
                    method: .DELETE, path: "/api/sharedcategories/\(home.unshared.id)", json: nil,
                    expected: (.notFound, .notFound, .notFound)),
            ]
            for test in cases {
                for (account, status, who) in [
                    (home.stranger, test.expected.0, "stranger"), (home.reader, test.expected.1, "reader"),
                    (home.editor, test.expected.2, "editor"),
                ] {
                    let response: XCTHTTPResponse
                    if test.upload {
                        var headers = account.bearer
                        headers.replaceOrAdd(name: .contentType, value: gif.1)
                        response = try await app.send(test.method, test.path, headers: headers, body: gif.0)
                    } else {
                        response = try await app.send(test.method, test.path, headers: account.bearer, json: test.json)
                    }
                    XCTAssertEqual(
                        response.status, status, "\(database): \(who) \(test.method) \(test.path): \(response.text)")
                    if status == .notFound || status == .forbidden {
                        XCTAssertTrue(response.text.contains(#""error""#), "the API's envelope: \(response.text)")
                    }
                }
            }
            // What the refused requests would have changed is as it was.
            let categories = try await app.placeCategories(of: home.owner)
            XCTAssertTrue(categories.contains { $0.id == home.shared.id && $0.name == home.shared.name })
            let secret = try await app.send(.GET, "/api/places/\(home.privatePlace.id)", headers: home.owner.bearer)
            XCTAssertFalse(
                try secret.decoded(DataEnvelope<PlaceResource>.self).data.notes == "x", "\(database): untouched")
            let shares = try await app.send(.GET, category + "/shares", headers: home.owner.bearer)
            XCTAssertEqual(
                try shares.decoded(DataEnvelope<[CategoryShareResource]>.self).data.map(\.canEdit), [true, false])
            let link = try await app.send(.GET, category + "/link", headers: home.owner.bearer)
            XCTAssertEqual(link.status, .notFound, "no member made a public link")
            let original = try await app.send(.GET, "/api/placecomments/\(home.commentID)", headers: home.owner.bearer)
            XCTAssertEqual(
                try original.decoded(DataEnvelope<PlaceCommentResource>.self).data.body, "The owner's word")
            // A member exports the shared category's places, and nothing else of the owner's; a stranger nothing.
            for (account, sees) in [(home.reader, true), (home.editor, true), (home.stranger, false)] {
                for query in ["category_id=\(home.shared.id)", "category_id=\(home.unshared.id)", "favorite=true", ""] {
                    let export = try await app.send(
                        .GET, "/api/places/export?format=geojson&\(query)", headers: account.bearer)
                    XCTAssertEqual(export.status, .ok, export.text)
                    XCTAssertEqual(
                        export.text.contains("Café de Flore"), sees && query.hasPrefix("category_id=\(home.shared.id)"),
                        "\(database): \(query): \(export.text)")
                    XCTAssertFalse(export.text.contains("Secret garden"), "\(database): \(query)")
                }
            }
            // Deleting the place, last: it takes its pictures and comments with it.
            for (account, status) in [
                (home.stranger, HTTPStatus.notFound), (home.reader, .forbidden), (home.editor, .ok),
            ] {
                let response = try await app.send(.DELETE, place, headers: account.bearer)
                XCTAssertEqual(response.status, status, "\(database): DELETE \(place): \(response.text)")
            }
        }
    }

    /// Every web route of places, their pictures and comments, their categories and sharing, tried by a
    /// stranger, a reader and an editor signed in to the web app: the status each must get, and nothing
    /// changed by a refused one.
    func testEveryWebRouteAnswersAStrangerAReaderAndAnEditorByTheirRights() async throws {
        try await forEachDatabase { app, _, database in
            let home = try await household(app)
            var browsers: [(WebClient, String)] = []
            for (account, who) in [(home.stranger, "stranger"), (home.reader, "reader"), (home.editor, "editor")] {
                let browser = WebClient(app: app)
                try await browser.get("/login")
                let signedIn = try await browser.post(
                    "/login", form: ["email": account.email, "password": account.password])
                XCTAssertEqual(signedIn.status, .seeOther, "\(who): \(signedIn.text)")
                browsers.append((browser, who))
            }
            let place = "/places/\(home.place.id)"
            let category = "/places/categories/\(home.shared.id)"
            let sharing = category + "/sharing"
            let edit = [
                "name": "Flore", "category_id": String(home.shared.id), "latitude": "48.854", "longitude": "2.333",
            ]
            let cases: [(HTTPMethod, String, [String: String], (HTTPStatus, HTTPStatus, HTTPStatus))] = [
                (.GET, place, [:], (.notFound, .ok, .ok)),
                (.GET, place + "/edit", [:], (.notFound, .forbidden, .ok)),
                (.POST, place + "/edit", edit, (.notFound, .forbidden, .seeOther)),
                (.POST, place + "/favorite", ["favorite": "true"], (.notFound, .forbidden, .forbidden)),
                (.GET, place + "/delete", [:], (.notFound, .forbidden, .ok)),
                (.POST, place + "/comments", ["body": "Mine"], (.notFound, .seeOther, .seeOther)),
                (.POST, "/places/comments/\(home.commentID)", ["body": "Mine"], (.notFound, .forbidden, .forbidden)),
                (.POST, "/places/comments/\(home.commentID)/delete", [:], (.notFound, .forbidden, .forbidden)),
                (.POST, "/places/photos/\(home.photoID)/move", ["position": "1"], (.notFound, .forbidden, .seeOther)),
                (.GET, category, [:], (.notFound, .ok, .ok)),
                (.POST, category + "/rename", ["name": "Mine"], (.notFound, .notFound, .notFound)),
                (.GET, category + "/delete", [:], (.notFound, .notFound, .notFound)),
                (.POST, category + "/delete", [:], (.notFound, .notFound, .notFound)),
                (.GET, sharing, [:], (.notFound, .notFound, .notFound)),
                (.POST, sharing, ["email": "eve@example.com", "access": "edit"], (.notFound, .notFound, .notFound)),
                (.POST, sharing + "/\(home.readerShareID)", ["access": "edit"], (.notFound, .notFound, .notFound)),
                (.POST, sharing + "/\(home.readerShareID)/revoke", [:], (.notFound, .notFound, .notFound)),
                (.POST, sharing + "/link", [:], (.notFound, .notFound, .notFound)),
                (.POST, sharing + "/link/revoke", [:], (.notFound, .notFound, .notFound)),
                (.POST, "/places/categories/\(home.unshared.id)/leave", [:], (.notFound, .notFound, .notFound)),
                (.GET, "/places/categories/\(home.unshared.id)", [:], (.notFound, .notFound, .notFound)),
                (.GET, "/places/\(home.privatePlace.id)", [:], (.notFound, .notFound, .notFound)),
                (.GET, "/places/\(home.privatePlace.id)/edit", [:], (.notFound, .notFound, .notFound)),
                (
                    .GET, "/settings/places/export?format=csv&category_id=\(home.unshared.id)", [:],
                    (.notFound, .notFound, .notFound)
                ),
            ]
            for (method, path, form, expected) in cases {
                for ((browser, who), status) in zip(browsers, [expected.0, expected.1, expected.2]) {
                    let response =
                        method == .GET ? try await browser.get(path) : try await browser.post(path, form: form)
                    XCTAssertEqual(response.status, status, "\(database): \(who) \(method) \(path): \(response.text)")
                }
            }
            // What the refused requests would have changed is as it was.
            let comment = try await app.send(.GET, "/api/placecomments/\(home.commentID)", headers: home.owner.bearer)
            XCTAssertEqual(try comment.decoded(DataEnvelope<PlaceCommentResource>.self).data.body, "The owner's word")
            let categories = try await app.placeCategories(of: home.owner)
            XCTAssertEqual(
                categories.filter { [home.shared.id, home.unshared.id].contains($0.id) }.map(\.name),
                [home.shared.name, home.unshared.name].sorted())
            let shares = try await app.send(
                .GET, "/api/categories/\(home.shared.id)/shares", headers: home.owner.bearer)
            XCTAssertEqual(
                try shares.decoded(DataEnvelope<[CategoryShareResource]>.self).data.map(\.canEdit), [true, false])
            let link = try await app.send(.GET, "/api/categories/\(home.shared.id)/link", headers: home.owner.bearer)
            XCTAssertEqual(link.status, .notFound)
            let ownerPlace = try await app.send(.GET, "/api/places/\(home.place.id)", headers: home.owner.bearer)
            XCTAssertFalse(try ownerPlace.decoded(DataEnvelope<PlaceResource>.self).data.isFavorite)
            // Deleting, last: the picture, then the place.
            for (path, expected) in [
                (
                    "/places/photos/\(home.photoID)/delete",
                    (HTTPStatus.notFound, HTTPStatus.forbidden, HTTPStatus.seeOther)
                ),
                (place + "/delete", (.notFound, .forbidden, .seeOther)),
            ] {
                for ((browser, who), status) in zip(browsers, [expected.0, expected.1, expected.2]) {
                    let response = try await browser.post(path, form: [:])
                    XCTAssertEqual(response.status, status, "\(database): \(who) POST \(path): \(response.text)")
                }
            }
            let gone = try await app.send(.GET, "/api/places/\(home.place.id)", headers: home.owner.bearer)
            XCTAssertEqual(gone.status, .notFound, "the editor deleted it")
        }
    }

    func testRevokingLeavingAndChangingAccessCountFromTheNextRequest() async throws {
        try await forEachDatabase { app, _, database in
            let home = try await household(app)
            let place = "/api/places/\(home.place.id)"
            let promoted = try await app.send(
                .PUT, "/api/categories/\(home.shared.id)/shares/\(home.readerShareID)", headers: home.owner.bearer,
                json: #"{"can_edit":true}"#)
            XCTAssertEqual(promoted.status, .ok, promoted.text)
            let edits = try await app.send(.PUT, place, headers: home.reader.bearer, json: #"{"notes":"Rob's"}"#)
            XCTAssertEqual(edits.status, .ok, "\(database): \(edits.text)")
            let comment = try await app.createdID(by: home.reader, place + "/comments", #"{"body":"Rob's word"}"#)

            let revoked = try await app.send(
                .DELETE, "/api/categories/\(home.shared.id)/shares/\(home.readerShareID)", headers: home.owner.bearer)
            XCTAssertEqual(revoked.status, .ok, revoked.text)
            for (method, path) in [
                (HTTPMethod.GET, place), (.GET, "/api/placecomments/\(comment)"),
                (.DELETE, "/api/placecomments/\(comment)"),
                (.GET, "/api/sharedcategories/\(home.shared.id)"),
            ] {
                let response = try await app.send(method, path, headers: home.reader.bearer)
                XCTAssertEqual(response.status, .notFound, "\(database): \(method) \(path): \(response.text)")
            }
            let kept = try await app.send(.GET, "/api/placecomments/\(comment)", headers: home.owner.bearer)
            XCTAssertEqual(kept.status, .ok, "a comment stays with the place: \(kept.text)")

            let left = try await app.send(
                .DELETE, "/api/sharedcategories/\(home.shared.id)", headers: home.editor.bearer)
            XCTAssertEqual(left.status, .ok, left.text)
            let gone = try await app.send(.GET, place, headers: home.editor.bearer)
            XCTAssertEqual(gone.status, .notFound)
            let twice = try await app.send(
                .DELETE, "/api/sharedcategories/\(home.shared.id)", headers: home.editor.bearer)
            XCTAssertEqual(twice.status, .notFound)
            let members = try await app.send(
                .GET, "/api/categories/\(home.shared.id)/shares", headers: home.owner.bearer)
            XCTAssertEqual(try members.decoded(DataEnvelope<[CategoryShareResource]>.self).data.count, 0)

            // A deleted category takes its shares with it.
            _ = try await app.createdID(
                by: home.owner, "/api/categories/\(home.unshared.id)/shares", #"{"email":"rob@example.com"}"#)
            let deleted = try await app.send(
                .DELETE, "/api/categories/\(home.unshared.id)?move_to=\(home.shared.id)", headers: home.owner.bearer)
            XCTAssertEqual(deleted.status, .ok, deleted.text)
            let none = try await app.send(.GET, "/api/sharedcategories", headers: home.reader.bearer)
            XCTAssertEqual(try none.decoded(DataEnvelope<[SharedCategoryResource]>.self).data.count, 0, none.text)
        }
    }

    /// A member keeps a copy of a shared category through its own feed: its places with their pictures and
    /// comments, then what changed, and `present` telling what left it.
    func testAMemberKeepsACopyOfASharedCategoryThroughItsFeed() async throws {
        try await forEachDatabase { app, clock, database in
            let home = try await household(app)
            let feed = "/api/sharedcategories/\(home.shared.id)/sync"
            let first = try await app.send(.GET, feed, headers: home.reader.bearer)
            XCTAssertEqual(first.status, .ok, "\(database): \(first.text)")
            let download = try first.decoded(SharedCategorySyncResource.self)
            XCTAssertEqual(
                Set(download.changes.map(\.type)), ["category", "place", "place_photo", "place_comment"], first.text)
            XCTAssertEqual(download.changes.filter { $0.type == "place" }.map(\.id), [home.place.id])
            XCTAssertFalse(first.text.contains("Secret garden"), "only the shared category's")
            XCTAssertFalse(download.hasMore)
            XCTAssertFalse(download.canEdit)
            let present = try XCTUnwrap(download.present, first.text)
            XCTAssertEqual(present["place"], [home.place.uuid])
            XCTAssertEqual(present["place_photo"]?.count, 1)
            XCTAssertEqual(present["place_comment"]?.count, 1)
            XCTAssertEqual(present["category"]?.count, 1)

            clock.advance(by: 60)
            let renamed = try await app.send(
                .PUT, "/api/places/\(home.place.id)", headers: home.owner.bearer, json: #"{"name":"Flore"}"#)
            XCTAssertEqual(renamed.status, .ok, renamed.text)
            let hidden = try await app.send(
                .PUT, "/api/places/\(home.privatePlace.id)", headers: home.owner.bearer, json: #"{"notes":"Hidden"}"#)
            XCTAssertEqual(hidden.status, .ok, hidden.text)
            let next = try await app.send(.GET, feed + "?cursor=\(download.cursor)", headers: home.reader.bearer)
            let changed = try next.decoded(SharedCategorySyncResource.self)
            XCTAssertEqual(changed.changes.map(\.type), ["place"], "\(database): \(next.text)")
            guard case .place(let place) = changed.changes[0].data else { return XCTFail(next.text) }
            XCTAssertEqual(place.name, "Flore")
            XCTAssertFalse(next.text.contains("Hidden"), "nothing of the owner's other categories")

            let paged = try await app.send(.GET, feed + "?limit=1", headers: home.reader.bearer)
            let firstPage = try paged.decoded(SharedCategorySyncResource.self)
            XCTAssertTrue(firstPage.hasMore)
            XCTAssertNil(firstPage.present, "told on the last page")

            let moved = try await app.send(
                .PUT, "/api/places/\(home.place.id)", headers: home.owner.bearer,
                json: #"{"category_id":\#(home.unshared.id)}"#)
            XCTAssertEqual(moved.status, .ok, moved.text)
            let after = try await app.send(.GET, feed + "?cursor=\(changed.cursor)", headers: home.reader.bearer)
            let left = try after.decoded(SharedCategorySyncResource.self)
            XCTAssertFalse(left.changes.contains { $0.type == "place" }, "\(database): \(after.text)")
            XCTAssertEqual(left.present?["place"], [], "the place left the category: \(after.text)")
            XCTAssertEqual(left.present?["place_comment"], [])

            for (account, path) in [
                (home.stranger, feed), (home.owner, feed),
                (home.reader, "/api/sharedcategories/\(home.unshared.id)/sync"),
            ] {
                let response = try await app.send(.GET, path, headers: account.bearer)
                XCTAssertEqual(response.status, .notFound, "\(database): \(path): \(response.text)")
            }
            for query in ["cursor=nonsense", "types=contact", "limit=0"] {
                let response = try await app.send(.GET, feed + "?\(query)", headers: home.reader.bearer)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(query): \(response.text)")
            }
            let editor = try await app.send(.GET, feed, headers: home.editor.bearer)
            XCTAssertTrue(try editor.decoded(SharedCategorySyncResource.self).canEdit)
            let revoked = try await app.send(
                .DELETE, "/api/categories/\(home.shared.id)/shares/\(home.readerShareID)", headers: home.owner.bearer)
            XCTAssertEqual(revoked.status, .ok)
            let gone = try await app.send(.GET, feed, headers: home.reader.bearer)
            XCTAssertEqual(gone.status, .notFound, "a revoked share answers 404: the client forgets the category")
        }
    }

    func testAPublicLinkShowsTheCategorysPlacesWithoutAnAccountUntilRevoked() async throws {
        try await forEachDatabase { app, _, database in
            let home = try await household(app)
            let category = "/api/categories/\(home.shared.id)"
            let made = try await app.send(.POST, category + "/link", headers: home.owner.bearer)
            XCTAssertEqual(made.status, .created, "\(database): \(made.text)")
            let link = try made.decoded(DataEnvelope<CategoryLinkResource>.self).data
            let again = try await app.send(.POST, category + "/link", headers: home.owner.bearer)
            XCTAssertEqual(again.status, .ok)
            XCTAssertEqual(try again.decoded(DataEnvelope<CategoryLinkResource>.self).data.url, link.url, "one link")
            let path = String(link.url.dropFirst("http://127.0.0.1:8080".count))
            XCTAssertTrue(path.hasPrefix("/shared/"), link.url)
            XCTAssertEqual(path.count - "/shared/".count, PersonalToken.length, "a long random token")

            let page = try await WebClient(app: app).get(path)
            XCTAssertEqual(page.status, .ok, page.text)
            XCTAssertTrue(page.text.contains("Café de Flore"))
            XCTAssertTrue(page.text.contains("places-map"), "on a map")
            XCTAssertFalse(page.text.contains("Secret garden"), "only the category's places")
            XCTAssertFalse(page.text.contains("ada@example.com"), "nothing of the owner's account")
            XCTAssertFalse(page.text.contains("/places/\(home.place.id)"), "no links into the owner's pages")
            XCTAssertEqual(page.headers.first(name: "X-Robots-Tag"), "noindex, nofollow")
            XCTAssertEqual(page.headers.first(name: "Referrer-Policy"), "no-referrer")

            for wrong in [
                "/shared/" + String(repeating: "a", count: PersonalToken.length), "/shared/short", "/shared/%00",
            ] {
                let response = try await WebClient(app: app).get(wrong)
                XCTAssertEqual(response.status, .notFound, "\(database): \(wrong)")
            }
            let revoked = try await app.send(.DELETE, category + "/link", headers: home.owner.bearer)
            XCTAssertEqual(revoked.status, .ok, revoked.text)
            let after = try await WebClient(app: app).get(path)
            XCTAssertEqual(after.status, .notFound, "a revoked link shows nothing")
            let remade = try await app.send(.POST, category + "/link", headers: home.owner.bearer)
            let newLink = try remade.decoded(DataEnvelope<CategoryLinkResource>.self).data
            XCTAssertNotEqual(newLink.url, link.url, "a new link is a new token")
        }
    }

    /// The web pages: the owner's sharing page, the member's categories, lists and place pages, the editor's
    /// forms, and leaving.
    func testTheWebPagesShareChangeAndLeaveByTheMembersRights() async throws {
        try await forEachDatabase { app, _, database in
            let owner = WebClient(app: app)
            _ = try await owner.register(name: "Ada", email: "ada@example.com")
            let reader = WebClient(app: app)
            _ = try await reader.register(name: "Rob", email: "rob@example.com")
            let editor = WebClient(app: app)
            _ = try await editor.register(name: "Eda", email: "eda@example.com")
            let ada = try await app.apiAccount(email: "ada@example.com")
            let categories = try await app.placeCategories(of: ada)
            let place = try await app.makePlace(for: ada)
            let category = categories[0]
            let sharing = "/places/categories/\(category.id)/sharing"

            let page = try await owner.get(sharing)
            XCTAssertEqual(page.status, .ok, page.text)
            XCTAssertTrue(page.text.contains("Nobody yet."))
            let unknown = try await owner.post(sharing, form: ["email": "nobody@example.com", "access": "read"])
            XCTAssertEqual(unknown.status, .unprocessableEntity, "\(database): \(unknown.text)")
            XCTAssertTrue(unknown.text.contains("No account on this server uses nobody@example.com"), unknown.text)
            XCTAssertTrue(unknown.text.contains(#"value="nobody@example.com""#), "kept as typed")
            let shared = try await owner.post(sharing, form: ["email": "rob@example.com", "access": "read"])
            XCTAssertEqual(shared.status, .seeOther, shared.text)
            try await owner.post(sharing, form: ["email": "eda@example.com", "access": "edit"])
            let listed = try await owner.get(sharing)
            XCTAssertTrue(listed.text.contains("rob@example.com, can read"), listed.text)
            XCTAssertTrue(listed.text.contains("eda@example.com, can edit"))

            let categoriesPage = try await reader.get("/places")
            XCTAssertTrue(categoriesPage.text.contains("Shared with you"), categoriesPage.text)
            XCTAssertTrue(categoriesPage.text.contains("shared by Ada, you can read"))
            let list = try await reader.get("/places/categories/\(category.id)")
            XCTAssertEqual(list.status, .ok, list.text)
            XCTAssertTrue(list.text.contains("Café de Flore"))
            XCTAssertTrue(list.text.contains("Shared with you by Ada"))
            XCTAssertFalse(list.text.contains(">Add place<"), "a reader adds nothing")
            let exportPage = try await reader.get("/settings/places?category_id=\(category.id)")
            XCTAssertTrue(
                exportPage.text.contains("\(category.name) (shared by Ada)"), "exported, named with its owner")
            let exported = try await reader.get("/settings/places/export?format=csv&category_id=\(category.id)")
            XCTAssertEqual(exported.status, .ok, exported.text)
            XCTAssertTrue(exported.text.contains("Café de Flore"), "\(database): \(exported.text)")
            let shown = try await reader.get("/places/\(place.id)")
            XCTAssertEqual(shown.status, .ok, shown.text)
            XCTAssertFalse(shown.text.contains("/places/\(place.id)/edit"), "no Edit for a reader")
            XCTAssertFalse(shown.text.contains("/places/\(place.id)/favorite"))
            XCTAssertTrue(shown.text.contains("/places/\(place.id)/comments"), "a reader comments")
            let readerEdit = try await reader.get("/places/\(place.id)/edit")
            XCTAssertEqual(readerEdit.status, .forbidden)
            let commented = try await reader.post("/places/\(place.id)/comments", form: ["body": "Rob says hi"])
            XCTAssertEqual(commented.status, .seeOther, commented.text)

            let editorPage = try await editor.get("/places/\(place.id)")
            XCTAssertTrue(editorPage.text.contains("/places/\(place.id)/edit"), "an editor edits")
            XCTAssertTrue(editorPage.text.contains("Rob says hi"))
            let form = try await editor.get("/places/\(place.id)/edit")
            XCTAssertEqual(form.status, .ok, form.text)
            XCTAssertTrue(form.text.contains("\(category.name) (shared by Ada)"), "the owner's category, named so")
            XCTAssertFalse(form.text.contains(#"name="new_category""#), "no new category of the owner's")
            XCTAssertFalse(form.text.contains(">\(categories[1].name)<"), "the owner's other categories unseen")
            let saved = try await editor.post(
                "/places/\(place.id)/edit",
                form: [
                    "name": "Flore", "category_id": String(category.id), "latitude": "48.854", "longitude": "2.333",
                ])
            XCTAssertEqual(saved.status, .seeOther, saved.text)
            let newForm = try await editor.get("/places/new")
            XCTAssertTrue(newForm.text.contains("\(category.name) (shared by Ada)"), "Add place offers it")
            let added = try await editor.post(
                "/places",
                form: [
                    "name": "Eda's find", "category_id": String(category.id), "latitude": "48.8", "longitude": "2.3",
                ])
            XCTAssertEqual(added.status, .seeOther, added.text)
            let adasPlaces = try await app.places(of: ada)
            XCTAssertEqual(adasPlaces.map(\.name), ["Eda's find", "Flore"], "\(database): the owner's places")

            let left = try await reader.post("/places/categories/\(category.id)/leave", form: [:])
            XCTAssertEqual(left.status, .seeOther, left.text)
            let afterLeaving = try await reader.get("/places/\(place.id)")
            XCTAssertEqual(afterLeaving.status, .notFound)
            let members = try await owner.get(sharing)
            XCTAssertFalse(members.text.contains("rob@example.com"), "gone from the owner's list")
            let edaShare = try await app.send(.GET, "/api/categories/\(category.id)/shares", headers: ada.bearer)
                .decoded(DataEnvelope<[CategoryShareResource]>.self).data[0]
            let revoked = try await owner.post(sharing + "/\(edaShare.id)/revoke", form: [:])
            XCTAssertEqual(revoked.status, .seeOther, revoked.text)
            let editorAfter = try await editor.get("/places/categories/\(category.id)")
            XCTAssertEqual(editorAfter.status, .notFound)

            let made = try await owner.post(sharing + "/link", form: [:])
            XCTAssertEqual(made.status, .seeOther)
            let withLink = try await owner.get(sharing)
            let publicPath = try XCTUnwrap(
                withLink.text.range(of: #"/shared/[A-Za-z0-9]+"#, options: .regularExpression).map {
                    String(withLink.text[$0])
                })
            let anonymous = try await WebClient(app: app).get(publicPath)
            XCTAssertEqual(anonymous.status, .ok)
            XCTAssertTrue(anonymous.text.contains("Flore"))
            try await owner.post(sharing + "/link/revoke", form: [:])
            let revokedPage = try await WebClient(app: app).get(publicPath)
            XCTAssertEqual(revokedPage.status, .notFound)
            let strangers = WebClient(app: app)
            _ = try await strangers.register(name: "Eve", email: "eve@example.com")
            for path in [sharing, "/places/\(place.id)", "/places/categories/\(category.id)"] {
                let response = try await strangers.get(path)
                XCTAssertEqual(response.status, .notFound, "\(database): \(path)")
            }
        }
    }
}
