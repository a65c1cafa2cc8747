import LocifyCore
import Vapor

/// The contact page's pets: add one, delete one. Both work without scripts and go back to the contact's
/// page; a refused pet draws the page again with the problem beside the form.
struct PetsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(PetPaths.contactPets, use: addPet)
        routes.post(PetPaths.delete, use: deletePet)
    }

    struct PetForm: Content {
        var categoryID: String?
        var name: String?

        enum CodingKeys: String, CodingKey {
            case categoryID = "pet_category_id"
            case name
        }
    }

    func addPet(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(PetForm.self)
        return try await request.handleContactForm(
            .pet, contact: contactID, typed: ["pet_category_id": form.categoryID, "name": form.name]
        ) {
            _ = try await request.pets().create(
                contactID: contactID,
                PetDraft(
                    categoryID: form.categoryID.flatMap(LooseValue.integer),
                    name: form.name))
            return .redirect(to: ContactPaths.contact(contactID).path + "#pets", flash: "The pet was added.")
        }
    }

    func deletePet(request: Request) async throws -> Response {
        let pet = try await request.pets().pet(try request.pathID(.petID))
        try await request.pets().delete(pet.id)
        return request.redirect(to: ContactPaths.contact(pet.contactID).path + "#pets", flash: "The pet was deleted.")
    }
}
