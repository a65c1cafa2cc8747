import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The genders of one owner, seeded with Monica's three the first time they are asked for.
struct GenderService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    /// The owner's genders, oldest first; Monica's three are made when the owner has none.
    func all() async throws -> [Gender] {
        try await stored().map(\.gender)
    }

    /// The owner's gender rows, oldest first, seeded the first time: every other question starts here, so
    /// a gender is never looked for before the defaults exist.
    private func stored() async throws -> [StoredGender] {
        let existing = try await Self.stored(ownedBy: ownerID, on: database)
        if !existing.isEmpty { return existing }
        let (now, newUUID) = (dependencies.now(), dependencies.newUUID)
        return try await database.write(GendersTable.self, ownedBy: ownerID, at: now) { [ownerID] genders in
            // Asked again under the account's write lock: two first requests at once seed once.
            let seeded = try await Self.stored(ownedBy: ownerID, on: genders.database)
            if !seeded.isEmpty { return seeded }
            var made: [StoredGender] = []
            for (name, type) in Gender.defaults {
                let id = try await genders.insert([
                    .uuid: newUUID(), .owner: ownerID, .name: name, .type: type, .createdAt: now, .updatedAt: now,
                ])
                made.append(
                    StoredGender(
                        gender: Gender(id: id, name: name, type: type), ownerID: ownerID, createdAt: now,
                        updatedAt: now))
            }
            return made
        }
    }

    private static func stored(ownedBy ownerID: Int, on database: any Database) async throws -> [StoredGender] {
        // A push's contacts would each ask again.
        try await TransactionReads.answer(of: GendersTable.self, for: ownerID, ownedBy: ownerID) {
            try await database.plainRows(
                """
                SELECT \(GendersTable.genderColumns.list) FROM "genders" WHERE "user_id" = \(literal: ownerID) \
                ORDER BY "id"
                """, columns: GendersTable.genderColumns.names
            ).map(GendersTable.gender(from:))
        }
    }

    /// One page of the owner's genders (a handful: sorted here).
    func page(sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> ([StoredGender], PageWindow) {
        page.slice(sort.sorted(try await stored(), created: \.createdAt, updated: \.updatedAt, id: \.id))
    }

    func gender(_ id: Int) async throws -> StoredGender {
        guard let gender = try await stored().first(where: { $0.id == id }) else { throw AppError.notFound }
        return gender
    }

    func create(name: String?, type: String?, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws
        -> StoredGender
    {
        _ = try await stored()
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Gender.validated(name: name, type: type)
        }
        try await database.requireNewRecord(uuid, in: GendersTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        let values: GendersTable.Values = [
            .uuid: uuid ?? dependencies.newUUID(), .owner: ownerID, .name: checked.name, .type: checked.type,
            .createdAt: now, .updatedAt: now,
        ]
        let id = try await database.write(GendersTable.self, ownedBy: ownerID, at: now) { try await $0.insert(values) }
        return StoredGender(
            gender: Gender(id: id, name: checked.name, type: checked.type), ownerID: ownerID, createdAt: now,
            updatedAt: now)
    }

    /// Renames or retypes a gender; a key left out keeps its value.
    func update(_ id: Int, name: String??, type: String??, typeErrors: [FieldError] = []) async throws
        -> StoredGender
    {
        var stored = try await gender(id)
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Gender.validated(name: name ?? stored.name, type: type ?? stored.type)
        }
        if checked.name != stored.name || checked.type != stored.type {
            let now = dependencies.now()
            let values: GendersTable.Values = [.name: checked.name, .type: checked.type, .updatedAt: now]
            try await database.write(GendersTable.self, ownedBy: ownerID, at: now) { [ownerID] in
                try await $0.update(id, ownedBy: ownerID, set: values)
            }
            stored.gender.name = checked.name
            stored.gender.type = checked.type
            stored.updatedAt = now
        }
        return stored
    }

    /// How many of the owner's contacts have each gender, in one question; genders no contact has are left
    /// out.
    func contactCounts() async throws -> [Int: Int] {
        let rows = try await database.plainRows(
            """
            SELECT "gender_id", COUNT(*) AS "contacts" FROM "contacts" \
            WHERE "user_id" = \(literal: ownerID) AND "gender_id" IS NOT NULL GROUP BY "gender_id"
            """, columns: ["gender_id", "contacts"])
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.requiredInteger(0), try $0.requiredInteger(1)) })
    }

    /// Deletes a gender. Contacts that have it move to `replacement`, which a gender in use needs (as in
    /// Monica); the last gender stays, as contacts need one to choose.
    func delete(_ id: Int, replacement: Int?) async throws {
        let genders = try await stored()
        guard genders.contains(where: { $0.id == id }) else { throw AppError.notFound }
        guard genders.count > 1 else {
            throw ValidationFailure(
                field: "id", "This is the last gender: add another before deleting it.", reason: .conflict)
        }
        let inUse =
            try await database.plainRows(
                """
                SELECT COUNT(*) AS "contacts" FROM "contacts" \
                WHERE "user_id" = \(literal: ownerID) AND "gender_id" = \(literal: id)
                """, columns: ["contacts"]
            ).first?.requiredInteger(0) ?? 0
        if let replacement {
            guard replacement != id else {
                throw ValidationFailure(
                    field: "replace_by", "A gender cannot replace itself: choose another.", reason: .conflict)
            }
            guard genders.contains(where: { $0.id == replacement }) else { throw AppError.notFound }
        } else if inUse > 0 {
            let contacts = inUse == 1 ? "1 contact has" : "\(inUse) contacts have"
            throw ValidationFailure(
                field: "replace_by", "\(contacts) this gender: say which gender replaces it (replace_by).",
                reason: .conflict)
        }
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID] transaction in
            if let replacement {
                try await TableWriter(ContactsTable.self, on: transaction).update(
                    [.genderID: replacement],
                    where: #""user_id" = \#(literal: ownerID) AND "gender_id" = \#(literal: id)"#)
            }
            try await TableWriter(GendersTable.self, on: transaction).delete(id, ownedBy: ownerID)
        }
    }
}
