import LocifyAPI
import LocifyCore
import Vapor

/// `/api/occupations` and `/api/contacts/{id}/occupations` (which Monica lacks; the other records have
/// it). An update's `contact_id` moves the occupation to another of the account's contacts, its
/// `company_id` to another company; what it leaves out is kept.
enum OccupationsAPIController {
    static let routes = ContactRecordRoutes<
        OccupationsTable, TimestampSortField, Occupation, OccupationInput, OccupationResource
    >(
        list: WorkPaths.apiOccupations, record: WorkPaths.apiOccupation, recordID: .occupationID,
        contactList: WorkPaths.apiContactOccupations, bodyLimit: nil, defaultSort: OccupationService.defaultSort,
        emptyInput: { OccupationInput() }, contactID: \.contactID, id: \.id,
        page: { request, contactID, query in
            try await request.occupations().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.occupations().occupation(id) },
        create: { request, contactID, input, uuid in
            try await request.occupations().create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
        },
        update: { request, id, input in
            try await request.occupations().update(id, movingTo: input.contactID, typeErrors: input.typeErrors) {
                input.merged(into: $0)
            }
        },
        delete: { request, id in try await request.occupations().delete(id) },
        resources: { request, occupations in try await request.occupationResources(occupations) })
}
