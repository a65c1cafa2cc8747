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
    private static let columns = TagsTable.tagColumns

    /// One page of the owner's tags, by name.
    func page(sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> ([Tag], PageWindow) {
        try await database.ownedChildPage(
            table: TagsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: nil, sort: sort,
            leadingOrder: Self.leadingOrder, page: page, read: { try TagsTable.tag(from: $0) })
    }

    /// Every tag of the owner with how many contacts carry it, by name: for suggestions and the filter.
    func all() async throws -> [(tag: Tag, contacts: Int)] {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.qualifiedList), \
            (SELECT COUNT(*) FROM "contact_tags" WHERE "contact_tags"."tag_id" = "tags"."id") AS "contacts" \
            FROM "tags" WHERE "user_id" = \(literal: ownerID) ORDER BY "name_key", "id"
            """, columns: Self.columns.names + ["contacts"])
        return try rows.map { (try TagsTable.tag(from: $0), try $0.requiredInteger(Self.columns.names.count)) }
    }

    func tag(_ id: Int) async throws -> Tag {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: TagsTable.self, selecting: Self.columns, read: { try TagsTable.tag(from: $0) })
    }

    /// The tag named `text`, made when the owner has none of that name (ignoring case, accents and
    /// spacing); `created` says which. Monica allowed two tags of one name; Locify answers the first.
    func create(named text: String?, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> (tag: Tag, created: Bool)
    {
        let name = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Tag.validatedName(text)
        }
        try await database.requireNewRecord(uuid, in: TagsTable.self, ownedBy: ownerID)
        if let existing = try await tag(named: name) { return (existing, false) }
        let now = dependencies.now()
        let values: TagsTable.Values = [
            .uuid: uuid ?? dependencies.newUUID(), .owner: ownerID, .name: name, .nameKey: Tag.key(of: name),
            .createdAt: now, .updatedAt: now,
        ]
        let id = try await database.write(TagsTable.self, ownedBy: ownerID, at: now) { try await $0.insert(values) }
        return (Tag(id: id, ownerID: ownerID, name: name, createdAt: now, updatedAt: now), true)
    }

    func rename(_ id: Int, to text: String?, typeErrors: [FieldError] = []) async throws -> Tag {
        var stored = try await tag(id)
        let name = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Tag.validatedName(text)
        }
        if let other = try await tag(named: name), other.id != stored.id {
            throw ValidationFailure(
                field: "name", "There is already a tag named “\(other.name)”.", reason: .conflict)
        }
        if stored.name != name {
            let now = dependencies.now()
            let values: TagsTable.Values = [.name: name, .nameKey: Tag.key(of: name), .updatedAt: now]
            try await database.write(TagsTable.self, ownedBy: ownerID, at: now) { [ownerID] in
                try await $0.update(id, ownedBy: ownerID, set: values)
            }
            stored = Tag(id: stored.id, ownerID: ownerID, name: name, createdAt: stored.createdAt, updatedAt: now)
        }
        return stored
    }

    /// Deletes the tag; the contacts that carried it lose it.
    func delete(_ id: Int) async throws {
        try await database.write(TagsTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] in
            try await $0.delete(id, ownedBy: ownerID)
        }
    }

    func tag(named name: String) async throws -> Tag? {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "tags" \
            WHERE "user_id" = \(literal: ownerID) AND "name_key" = \(bind: Tag.key(of: name))
            """, columns: Self.columns.names)
        return try rows.first.map { try TagsTable.tag(from: $0) }
    }

    /// The tags on each of `contactIDs`, in the order they were put on; contacts without any are left out.
    func tags(ofContacts contactIDs: [Int]) async throws -> [Int: [Tag]] {
        guard !contactIDs.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            """
            SELECT "contact_tags"."contact_id", \(Self.columns.qualifiedList) \
            FROM "contact_tags" JOIN "tags" ON "tags"."id" = "contact_tags"."tag_id" \
            WHERE \(SQLQueryString.owned(by: ownerID, ids: contactIDs, of: "contact_tags", idColumn: "contact_id")) \
            ORDER BY "contact_tags"."id"
            """, columns: ["contact_id"] + Self.columns.names)
        var tags: [Int: [Tag]] = [:]
        for row in rows { tags[try row.requiredInteger(0), default: []].append(try TagsTable.tag(from: row, at: 1)) }
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
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID, dependencies] database in
            let service = TagService(database: database, ownerID: ownerID, dependencies: dependencies)
            let attached = Set(try await service.tags(ofContacts: [contactID])[contactID, default: []].map(\.id))
            var added: Set<Int> = []
            for name in wanted {
                let tag = try await service.create(named: name).tag
                guard !attached.contains(tag.id), added.insert(tag.id).inserted else { continue }
                try await TableWriter(ContactTagsTable.self, on: database).insert([
                    .uuid: dependencies.newUUID(), .owner: ownerID, .contact: contactID, .tag: tag.id,
                    .createdAt: dependencies.now(),
                ])
            }
        }
    }

    /// Puts the tag `tagID` on the contact under the link's `uuid` (an import keeps the one it had), and
    /// returns the link's id; a tag already on the contact keeps its link.
    func link(_ tagID: Int, toContact contactID: Int, uuid: UUID) async throws -> Int {
        try await requireEditable(contactID)
        _ = try await tag(tagID)
        try await database.requireNewRecord(uuid, in: ContactTagsTable.self, ownedBy: ownerID)
        let links = try await database.plainRows(
            """
            SELECT "id" FROM "contact_tags" WHERE "user_id" = \(literal: ownerID) \
            AND "contact_id" = \(bind: contactID) AND "tag_id" = \(bind: tagID)
            """, columns: ["id"])
        if let id = try links.first?.requiredInteger(0) { return id }
        let now = dependencies.now()
        return try await database.write(ContactTagsTable.self, ownedBy: ownerID, at: now) { [ownerID] links in
            try await links.insert([.uuid: uuid, .owner: ownerID, .contact: contactID, .tag: tagID, .createdAt: now])
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
        let chosen = SQLQueryString(Set(ids).sorted().map(String.init).joined(separator: ", "))
        try await database.write(ContactTagsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            try await $0.delete(where: #""contact_id" = \#(literal: contactID) AND "tag_id" IN (\#(chosen))"#)
        }
    }

    /// Takes every tag off the contact.
    func unsetAllTags(fromContact contactID: Int) async throws {
        try await requireEditable(contactID)
        try await database.write(ContactTagsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            try await $0.delete(where: #""contact_id" = \#(literal: contactID)"#)
        }
    }

    /// The owner's contact, which must not be archived to have its tags changed (as in Monica).
    private func requireEditable(_ contactID: Int) async throws {
        let contact = try await database.requireContact(contactID, ownedBy: ownerID)
        if contact.isArchived {
            throw ValidationFailure.archivedContact
        }
    }
}
