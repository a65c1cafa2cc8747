import LocifyAPI
import Vapor

extension SyncedType {
    static let company = SyncedType(CompaniesTable.self, writes: .company, restore: .company) { request, ids in
        let companies = try await request.ownedRows(
            ids, in: CompaniesTable.self, selecting: CompaniesTable.companyColumns, read: CompaniesTable.company(from:))
        return byID(companies.map(CompanyResource.init), id: \.id, as: SyncRecord.company)
    }

    static let occupation = SyncedType(OccupationsTable.self, writes: .occupation, restore: .occupation) {
        request, ids in
        let occupations = try await request.ownedRows(
            ids, in: OccupationsTable.self, selecting: OccupationsTable.occupationColumns,
            read: OccupationsTable.occupation(from:))
        return byID(try await request.occupationResources(occupations), id: \.id, as: SyncRecord.occupation)
    }
}

extension SyncReference {
    static let company = SyncReference("company_uuid", for: "company_id", in: CompaniesTable.self)
}

extension SyncWrites {
    static let company = SyncWrites(
        reading: CompanyInput.self, fields: ["name", "website", "number_of_employees"],
        create: { request, input, uuid in
            try await request.companies().create(input.draft, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.companies().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.companies().delete(id) })

    static let occupation = OccupationsAPIController.routes.syncWrites(
        fields: [
            "contact_id", "company_id", "title", "description", "salary", "salary_unit", "currently_works_here",
            "start_date", "end_date",
        ],
        references: [.contact, .company])
}

/// The web app shows neither yet: a change reaches no page.
extension OfflinePages {
    static let company = OfflinePages(type: SyncedType.company.name)
    static let occupation = OfflinePages(type: SyncedType.occupation.name)
}

extension ArchiveRestore {
    static let company = ArchiveRestore(writes: .company) { record, ids in
        try record.fields(["name", "website", "number_of_employees"], ids: ids)
    }

    static let occupation = ArchiveRestore(writes: .occupation) { record, ids in
        try record.fields(
            [
                "title", "description", "salary", "salary_unit", "currently_works_here", "start_date", "end_date",
            ], references: ["contact_id": "contact", "company_id": "company"], ids: ids)
    }
}
