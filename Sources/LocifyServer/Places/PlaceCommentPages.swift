import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let placeComment = FormName("place-comment")
}

/// One comment as a place's page lists it: who wrote it and when, and, for its author, the edit form
/// (open, with the problem, when an edit was refused) and the delete button.
struct PlaceCommentLine: Encodable {
    let id: Int
    let body: String
    let author: String
    let written: String
    let isEdited: Bool
    let isOwn: Bool
    let editURL: String
    let deleteURL: String
    let bodyField: FormField
    let isEditing: Bool

    init(_ comment: PlaceComment, author: String, viewerID: Int, problem: FormProblem?) {
        id = comment.id
        body = comment.body
        self.author = author
        written = Timestamp.day(comment.createdAt)
        isEdited = comment.isEdited
        isOwn = comment.authorID == viewerID
        editURL = PlaceCommentPaths.comment(comment.id).path
        deleteURL = PlaceCommentPaths.delete(comment.id).path
        let error = problem?.message(for: .placeComment, item: comment.id)
        isEditing = error != nil
        bodyField = FormField(
            "body", label: "Comment", control: .textarea,
            value: problem?.typed("body", in: .placeComment, item: comment.id) ?? comment.body, error: error,
            maxLength: PlaceCommentDraft.maximumBodyLength
        ).identified(as: "comment-\(comment.id)-body")
    }
}

/// A place's comments, oldest first, and the form for a new one.
struct PlaceCommentsSection: Encodable {
    let items: [PlaceCommentLine]
    let addURL: String
    let bodyField: FormField

    init(placeID: Int, comments: [PlaceComment], authors: [Int: String], viewerID: Int, problem: FormProblem?) {
        items = comments.map {
            PlaceCommentLine($0, author: authors[$0.authorID] ?? "", viewerID: viewerID, problem: problem)
        }
        addURL = PlaceCommentPaths.placeComments(placeID).path
        bodyField = FormField(
            "body", label: "New comment", control: .textarea, value: problem?.typed("body", in: .placeComment),
            error: problem?.message(for: .placeComment), maxLength: PlaceCommentDraft.maximumBodyLength, rows: 3
        ).identified(as: "new-comment")
    }
}
