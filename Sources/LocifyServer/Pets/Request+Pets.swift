import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's pets.
    func pets() throws -> PetService {
        PetService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a pet input (see `jsonInput`).
    func petInput() throws -> PetInput {
        try jsonInput(PetInput.self, empty: PetInput(draft: PetDraft(), presentKeys: []))
    }

    func petResource(_ pet: Pet) async throws -> PetResource {
        try await petResources([pet])[0]
    }

    /// Each pet with its contact, the contacts read in one query.
    func petResources(_ pets: [Pet]) async throws -> [PetResource] {
        try await resources(pets, contactOf: \.contactID) { pet, contact in PetResource(pet, contact: contact) }
    }
}
