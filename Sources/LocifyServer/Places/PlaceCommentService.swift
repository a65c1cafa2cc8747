import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The comments on one account's places (the shape of `NoteService`): `ownerID`'s records, written by
/// `authorID`, who alone edits or deletes their own comments.
struct PlaceCommentService {
    let database: any Database
    let ownerID: Int
    let authorID: Int
    let dependencies: LocifyDependencies

    /// A conversation reads from its start: oldest first.
    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = PlaceCommentsTable.commentColumns

    /// One page of the comments, of one place when `placeID` is given.
    func page(placeID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [PlaceComment], PageWindow
    ) {
        try await database.ownedChildPage(
            table: PlaceCommentsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: nil,
            matching: placeID.map { #""place_id" = \#(literal: $0)"# }, sort: sort, page: page,
            read: PlaceCommentsTable.comment(from:))
    }

    /// Every comment on a place, oldest first, for its page.
    func all(onPlace placeID: Int) async throws -> [PlaceComment] {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "place_comments" \
            WHERE "user_id" = \(literal: ownerID) AND "place_id" = \(literal: placeID) ORDER BY "created_at", "id"
            """, columns: Self.columns.names)
        return try rows.map(PlaceCommentsTable.comment(from:))
    }

    func comment(_ id: Int) async throws -> PlaceComment {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: PlaceCommentsTable.self, selecting: Self.columns,
            read: PlaceCommentsTable.comment(from:))
    }

    /// Adds a comment to one of the owner's places; a missing place is reported with the other problems.
    func create(placeID: Int?, _ draft: PlaceCommentDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil)
        async throws -> PlaceComment
    {
        let (body, placeID) = try ValidationFailure.checking(
            parent: placeID, field: "place_id", missing: "Choose the place this comment is about.",
            typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: PlaceCommentsTable.self, ownedBy: ownerID)
        try await database.requirePlace(placeID, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let values: TableWriter<PlaceCommentsTable>.Values = [
            .uuid: uuid, .owner: ownerID, .place: placeID, .author: authorID, .body: body, .createdAt: now,
            .updatedAt: now,
        ]
        let id = try await database.write(PlaceCommentsTable.self, ownedBy: ownerID, at: now) { comments in
            try await comments.insert(values)
        }
        return PlaceComment(
            id: id, uuid: uuid, ownerID: ownerID, placeID: placeID, authorID: authorID, body: body, createdAt: now,
            updatedAt: now)
    }

    /// Changes the text of a comment its author wrote; `change` gets it as a draft.
    func update(
        _ id: Int, typeErrors: [FieldError] = [], _ change: (PlaceCommentDraft) -> PlaceCommentDraft
    ) async throws -> PlaceComment {
        var comment = try await ownComment(id)
        let body = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(PlaceCommentDraft(body: comment.body)).validated()
        }
        let now = dependencies.now()
        try await database.write(PlaceCommentsTable.self, ownedBy: ownerID, at: now) { [ownerID] comments in
            try await comments.update(id, ownedBy: ownerID, set: [.body: body, .updatedAt: now])
        }
        comment.body = body
        comment.updatedAt = now
        return comment
    }

    func delete(_ id: Int) async throws {
        _ = try await ownComment(id)
        try await database.write(PlaceCommentsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] comments in try await comments.delete(id, ownedBy: ownerID)
        }
    }

    /// The names of the accounts that wrote `comments`, by id, in one query.
    func authorNames(of comments: [PlaceComment]) async throws -> [Int: String] {
        let ids = Set(comments.map(\.authorID)).sorted()
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            #"SELECT "id", "name" FROM "users" WHERE "id" IN (\#(binds: ids))"#, columns: ["id", "name"])
        var names: [Int: String] = [:]
        for row in rows { names[try row.requiredInteger(0)] = try row.requiredText(1) }
        return names
    }

    /// The comment `id`, when `authorID` wrote it: another's is refused, whoever owns the place.
    private func ownComment(_ id: Int) async throws -> PlaceComment {
        let comment = try await comment(id)
        guard comment.authorID == authorID else { throw PlaceCommentFailure.notTheAuthor }
        return comment
    }

}

/// Why a comment cannot be changed.
enum PlaceCommentFailure: AppFailure {
    case notTheAuthor

    var kind: FailureKind { .forbidden }
    var messages: [String] { ["Only the person who wrote a comment can change or delete it."] }
}
