import Foundation
import LocifyCore

/// The account's companies; the occupations at a company go with it.
enum CompaniesTable: StoredTable {
    static let name = "companies"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case name
        case website
        case numberOfEmployees = "number_of_employees"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "company", revision: .revision, uuid: .uuid,
        dependents: [SyncedDependent(OccupationsTable.self, by: .company)])

    /// The columns `company(from:)` reads.
    static let companyColumns = selection(Column.allCases.filter { $0 != .revision })

    static func company(from row: PlainRow) throws -> Company {
        Company(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            fields: CompanyFields(
                name: try row.requiredText(3), website: try row.text(4), numberOfEmployees: try row.integer(5)),
            createdAt: try row.requiredDate(6), updatedAt: try row.requiredDate(7))
    }

    static func values(of fields: CompanyFields, now: Date) -> TableWriter<Self>.Values {
        [.name: fields.name, .website: fields.website, .numberOfEmployees: fields.numberOfEmployees, .updatedAt: now]
    }
}
