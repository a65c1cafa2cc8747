import Foundation
import LocifyCore

/// Contacts' jobs at the account's companies; they go with their contact and with their company.
enum OccupationsTable: StoredTable {
    static let name = "occupations"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case contact = "contact_id"
        case company = "company_id"
        case title
        case description
        case salary
        /// One of `SalaryUnit`'s raw values.
        case salaryUnit = "salary_unit"
        case currentlyWorksHere = "currently_works_here"
        /// `YYYY-MM-DD`.
        case startDate = "start_date"
        case endDate = "end_date"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "occupation", revision: .revision, uuid: .uuid)

    /// The columns `occupation(from:)` reads.
    static let occupationColumns = selection(Column.allCases.filter { $0 != .revision })

    static func occupation(from row: PlainRow) throws -> Occupation {
        Occupation(
            id: try row.requiredInteger(0), uuid: try row.requiredUUID(1), ownerID: try row.requiredInteger(2),
            contactID: try row.requiredInteger(3),
            fields: OccupationFields(
                companyID: try row.requiredInteger(4), title: try row.requiredText(5), description: try row.text(6),
                salary: try row.integer(7),
                salaryUnit: try row.text(8, naming: "a salary unit", SalaryUnit.init(rawValue:)),
                currentlyWorksHere: try row.requiredBool(9),
                startDate: try row.text(10, naming: "a day", CalendarDate.init(iso8601:)),
                endDate: try row.text(11, naming: "a day", CalendarDate.init(iso8601:))),
            createdAt: try row.requiredDate(12), updatedAt: try row.requiredDate(13))
    }

    static func values(of fields: OccupationFields, now: Date) -> TableWriter<Self>.Values {
        [
            .company: fields.companyID, .title: fields.title, .description: fields.description, .salary: fields.salary,
            .salaryUnit: fields.salaryUnit?.rawValue, .currentlyWorksHere: fields.currentlyWorksHere,
            .startDate: fields.startDate?.description, .endDate: fields.endDate?.description, .updatedAt: now,
        ]
    }
}
