import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Tags of one owner and the contacts they are on.
struct TagService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    /// Monica lists tags by name whatever `sort` says; `sort` only orders tags of the same name.
    static let leadingOrder: SQLQueryString = #""name_key" ASC"#
    static let columns = ["id", "user_id", "name", "created_at", "updated_at"]

    static func tag(from row: PlainRow, at first: Int = 0) throws -> Tag {
        Tag(
            id: try row.requiredInteger(first), ownerID: try row.requiredInteger(first + 1),
            name: try row.requiredText(first + 2), createdAt: try row.requiredDate(first + 3),
            updatedAt: try row.requiredDate(first + 4))
    }

    /// One page of the owner's tags, by name.
    func page(sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> ([Tag], PageWindow) {
        try await database.ownedChildPage(
            table: TagModel.schema, columns: Self.columns, ownerID: ownerID, contactID: nil, sort: sort,
            leadingOrder: Self.leadingOrder, page: page, read: { try Self.tag(from: $0) })
    }

    /// Every tag of the owner with how many contacts carry it, by name: for suggestions and the filter.
    func all() async throws -> [(tag: Tag, contacts: Int)] {
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(Self.columns, of: "tags")), \
            (SELECT COUNT(*) FROM "contact_tags" WHERE "contact_tags"."tag_id" = "tags"."id") AS "contacts" \
            FROM "tags" WHERE "user_id" = \(literal: ownerID) ORDER BY "name_key", "id"
            """, columns: Self.columns + ["contacts"])
        return try rows.map { (try Self.tag(from: $0), try $0.requiredInteger(Self.columns.count)) }
    }

    func tag(_ id: Int) async throws -> Tag {
        try await TagModel.requireOwned(id, by: ownerID, on: database).value()
    }

    /// The tag named `text`, made when the owner has none of that name (ignoring case, accents and
    /// spacing); `created` says which. Monica allowed two tags of one name; Locify answers the first.
    func create(named text: String?, typeErrors: [FieldError] = []) async throws -> (tag: Tag, created: Bool) {
        let name = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Tag.validatedName(text)
        }
        if let existing = try await model(named: name) { return (try existing.value(), false) }
        let model = TagModel(ownerID: ownerID, name: name, now: dependencies.now())
        try await model.save(on: database)
        return (try model.value(), true)
    }

    func rename(_ id: Int, to text: String?, typeErrors: [FieldError] = []) async throws -> Tag {
        let model = try await TagModel.requireOwned(id, by: ownerID, on: database)
        let name = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Tag.validatedName(text)
        }
        if let other = try await self.model(named: name), other.id != model.id {
            throw ValidationFailure(
                field: "name", "There is already a tag named “\(other.name)”.", reason: .conflict)
        }
        if model.name != name {
            model.name = name
            model.nameKey = Tag.key(of: name)
            model.updatedAt = dependencies.now()
            try await model.save(on: database)
        }
        return try model.value()
    }

    /// Deletes the tag; the contacts that carried it lose it.
    func delete(_ id: Int) async throws {
        try await TagModel.requireOwned(id, by: ownerID, on: database).delete(on: database)
    }

    private func model(named name: String) async throws -> TagModel? {
        try await TagModel.owned(by: ownerID, on: database).filter(\.$nameKey == Tag.key(of: name)).first()
    }

    /// The tags on each of `contactIDs`, in the order they were put on; contacts without any are left out.
    func tags(ofContacts contactIDs: [Int]) async throws -> [Int: [Tag]] {
        guard !contactIDs.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT "contact_tags"."contact_id", \(SQLQueryString.columnList(Self.columns, of: "tags")) \
            FROM "contact_tags" JOIN "tags" ON "tags"."id" = "contact_tags"."tag_id" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, of: "contact_tags", idColumn: "contact_id")) \
            ORDER BY "contact_tags"."id"
            """, columns: ["contact_id"] + Self.columns)
        var tags: [Int: [Tag]] = [:]
        for row in rows { tags[try row.requiredInteger(0), default: []].append(try Self.tag(from: row, at: 1)) }
        return tags
    }

    /// Puts the tags named in `names` on the contact, making the missing ones (a name matches a tag
    /// whatever its case, accents or spacing); the contact's other tags stay. Empty names are skipped.
    func setTags(_ names: [String], onContact contactID: Int) async throws {
        try await requireEditable(contactID)
        let wanted = names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        // Every name is checked before anything is written, so one bad name changes nothing.
        var problems: [FieldError] = []
        for name in wanted {
            do {
                _ = try Tag.validatedName(name, field: "tags")
            } catch {
                problems += error.errors
            }
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        try await database.transaction { database in
            let service = TagService(database: database, ownerID: ownerID, dependencies: dependencies)
            let attached = Set(try await service.tags(ofContacts: [contactID])[contactID, default: []].map(\.id))
            var added: Set<Int> = []
            for name in wanted {
                let tag = try await service.create(named: name).tag
                guard !attached.contains(tag.id), added.insert(tag.id).inserted else { continue }
                try await database.sqlDatabase().raw(
                    """
                    INSERT INTO "contact_tags" ("user_id", "contact_id", "tag_id", "created_at") \
                    VALUES (\(literal: ownerID), \(literal: contactID), \(literal: tag.id), \(bind: dependencies.now()))
                    """
                ).run()
            }
        }
    }

    /// Takes the tags `ids` off the contact, all or none: an id that is not one of the owner's tags is
    /// not found, and nothing changes.
    func unsetTags(_ ids: [Int], fromContact contactID: Int) async throws {
        try await requireEditable(contactID)
        guard !ids.isEmpty else { return }
        let rows = try await database.plainRows(
            #"SELECT "id" FROM "tags" WHERE \#(SQLQueryString.owned(by: ownerID, ids: ids))"#, columns: ["id"])
        guard rows.count == Set(ids).count else { throw AppError.notFound }
        try await database.sqlDatabase().raw(
            """
            DELETE FROM "contact_tags" WHERE "contact_id" = \(literal: contactID) \
            AND "tag_id" IN (\(SQLQueryString(Set(ids).sorted().map(String.init).joined(separator: ", "))))
            """
        ).run()
    }

    /// Takes every tag off the contact.
    func unsetAllTags(fromContact contactID: Int) async throws {
        try await requireEditable(contactID)
        try await database.sqlDatabase().raw(
            #"DELETE FROM "contact_tags" WHERE "contact_id" = \#(literal: contactID)"#
        ).run()
    }

    /// The owner's contact, which must not be archived to have its tags changed (as in Monica).
    private func requireEditable(_ contactID: Int) async throws {
        let contact = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        if contact.isArchived {
            throw ValidationFailure.archivedContact
        }
    }
}
