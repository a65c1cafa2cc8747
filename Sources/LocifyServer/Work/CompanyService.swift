import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Companies of one owner, in the shape of `TagService`: owner-scoped queries, Core values in and out.
struct CompanyService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = CompaniesTable.companyColumns

    func page(sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> ([Company], PageWindow) {
        try await database.ownedChildPage(
            table: CompaniesTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: nil, sort: sort,
            page: page, read: CompaniesTable.company(from:))
    }

    func company(_ id: Int) async throws -> Company {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: CompaniesTable.self, selecting: Self.columns, read: CompaniesTable.company(from:))
    }

    /// The owner's company called `name` (letters' case aside), the oldest when several are.
    func company(named name: String) async throws -> Company? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let rows = try await database.plainRows(
            #"SELECT \#(Self.columns.list) FROM "companies" WHERE "user_id" = \#(literal: ownerID) AND LOWER("name") = LOWER(\#(bind: trimmed)) ORDER BY "id" LIMIT 1"#,
            columns: Self.columns.names)
        return try rows.first.map(CompaniesTable.company(from:))
    }

    /// Every company's name by id: what a page needs to name a job's company and to suggest companies,
    /// without reading whole rows.
    func names() async throws -> [Int: String] {
        let rows = try await database.plainRows(
            #"SELECT "id", "name" FROM "companies" WHERE "user_id" = \#(literal: ownerID)"#, columns: ["id", "name"])
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.requiredInteger(0), try $0.requiredText(1)) })
    }

    /// The owner's companies of `ids`, by id; another account's are left out.
    func companies(_ ids: some Sequence<Int>) async throws -> [Int: Company] {
        let found = try await database.ownedRows(
            Array(Set(ids)), ownedBy: ownerID, in: CompaniesTable.self, selecting: Self.columns,
            read: CompaniesTable.company(from:))
        return Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
    }

    func create(_ draft: CompanyDraft, typeErrors: [FieldError] = [], uuid: UUID? = nil) async throws -> Company {
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try draft.validated()
        }
        try await database.requireNewRecord(uuid, in: CompaniesTable.self, ownedBy: ownerID)
        let now = dependencies.now()
        var values = CompaniesTable.values(of: fields, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .createdAt: now]) { $1 }
        let id = try await database.write(CompaniesTable.self, ownedBy: ownerID, at: now) { [values] companies in
            try await companies.insert(values)
        }
        return Company(id: id, uuid: uuid, ownerID: ownerID, fields: fields, createdAt: now, updatedAt: now)
    }

    /// Changes a stored company: `change` gets it as a draft and returns the new one.
    func update(_ id: Int, typeErrors: [FieldError] = [], _ change: (CompanyDraft) -> CompanyDraft) async throws
        -> Company
    {
        var stored = try await company(id)
        let fields = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(CompanyDraft(stored.fields)).validated()
        }
        let now = dependencies.now()
        let values = CompaniesTable.values(of: fields, now: now)
        try await database.write(CompaniesTable.self, ownedBy: ownerID, at: now) { [ownerID, values] companies in
            try await companies.update(id, ownedBy: ownerID, set: values)
        }
        stored.fields = fields
        stored.updatedAt = now
        return stored
    }

    /// Deletes the company and the occupations at it, as Monica's foreign key does.
    func delete(_ id: Int) async throws {
        try await database.write(CompaniesTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] companies in
            try await companies.delete(id, ownedBy: ownerID)
        }
    }
}
