import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's pets.
    func pets() throws -> PetService {
        PetService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each pet with its contact, the contacts read in one query.
    func petResources(_ pets: [Pet]) async throws -> [PetResource] {
        try await resources(pets, contactOf: \.contactID) { pet, contact in PetResource(pet, contact: contact) }
    }
}
