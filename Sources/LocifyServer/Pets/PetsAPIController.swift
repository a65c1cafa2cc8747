import LocifyAPI
import LocifyCore
import Vapor

/// `/api/pets` and `/api/contacts/{id}/pets`. An update's `contact_id` moves the pet to another of the
/// account's contacts, as Monica's does; what it leaves out is kept.
enum PetsAPIController {
    static let routes = ContactRecordRoutes<PetsTable, TimestampSortField, Pet, PetInput, PetResource>(
        list: PetPaths.api, record: PetPaths.apiPet, recordID: .petID, contactList: PetPaths.apiContactPets,
        bodyLimit: nil, defaultSort: PetService.defaultSort,
        emptyInput: { PetInput(draft: PetDraft(), presentKeys: []) }, contactID: \.contactID, id: \.id,
        page: { request, contactID, query in
            try await request.pets().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.pets().pet(id) },
        create: { request, contactID, input, uuid in
            try await request.pets().create(contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
        },
        update: { request, id, input in
            try await request.pets().update(id, movingTo: input.contactID, typeErrors: input.typeErrors) {
                input.merged(into: $0)
            }
        },
        delete: { request, id in try await request.pets().delete(id) },
        resources: { request, pets in try await request.petResources(pets) })
}
