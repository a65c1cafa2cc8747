import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Gifts of one owner, in the shape of `CallService`: owner-scoped queries, Core values in and out.
struct GiftService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = GiftsTable.giftColumns

    /// One page of the owner's gifts, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Gift], PageWindow
    ) {
        try await database.ownedChildPage(
            table: GiftsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID, sort: sort,
            page: page, read: GiftsTable.gift(from:))
    }

    func gift(_ id: Int) async throws -> Gift {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: GiftsTable.self, selecting: Self.columns, read: GiftsTable.gift(from:))
    }

    /// Records a gift with one of the owner's contacts; a missing contact is reported with the other
    /// problems, another account's is not found, an archived one refused.
    func create(contactID: Int?, _ draft: GiftDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> Gift
    {
        let (fields, contactID) = try ValidationFailure.checking(
            contactID: contactID, about: "gift", typeErrors: typeErrors
        ) { () throws(ValidationFailure) in try draft.validated() }
        try await database.requireNewRecord(uuid, in: GiftsTable.self, ownedBy: ownerID)
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        if let recipient = fields.recipientID { _ = try await database.requireContact(recipient, ownedBy: ownerID) }
        if contact.isArchived { throw ValidationFailure.archivedContact }
        let now = dependencies.now()
        var values = GiftsTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await database.write(GiftsTable.self, ownedBy: ownerID, at: now) { [values] gifts in
            try await gifts.insert(values)
        }
        return Gift(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored gift: `change` gets it as a draft and returns the new one. A gift stays with its
    /// contact.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (GiftDraft) -> GiftDraft) async throws -> Gift {
        let stored = try await gift(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(GiftDraft(stored.fields)).validated()
        }
        if let recipient = fields.recipientID, recipient != stored.fields.recipientID {
            _ = try await database.requireContact(recipient, ownedBy: ownerID)
        }
        let now = dependencies.now()
        let values = GiftsTable.values(of: fields, now: now)
        try await database.write(GiftsTable.self, ownedBy: ownerID, at: now) { [ownerID, values] gifts in
            try await gifts.update(id, ownedBy: ownerID, set: values)
        }
        var updated = stored
        updated.fields = fields
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(GiftsTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] gifts in
            try await gifts.delete(id, ownedBy: ownerID)
        }
    }
}
