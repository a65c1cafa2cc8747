import LocifyCore
import Vapor

/// The contact page's pets: add one, change one, delete one. All work without scripts and go back to the contact's
/// page; a refused pet draws the page again with the problem beside the form.
struct PetsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(PetPaths.contactPets, use: addPet)
        routes.post(PetPaths.pet, use: editPet)
        routes.post(PetPaths.delete, use: deletePet)
    }

    struct PetForm: Content {
        var categoryID: String?
        var name: String?

        enum CodingKeys: String, CodingKey {
            case categoryID = "pet_category_id"
            case name
        }

        var typed: [String: String?] { ["pet_category_id": categoryID, "name": name] }

        var draft: PetDraft { PetDraft(categoryID: categoryID.flatMap(LooseValue.integer), name: name) }
    }

    func addPet(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(PetForm.self)
        return try await request.handleContactForm(.pet, contact: contactID, typed: form.typed) {
            _ = try await request.pets().create(contactID: contactID, form.draft)
            return .redirect(to: ContactPaths.contact(contactID).path + "#pets", flash: "The pet was added.")
        }
    }

    func editPet(request: Request) async throws -> Response {
        let pets = try request.pets()
        let pet = try await pets.pet(try request.pathID(.petID))
        let form = try request.content.decode(PetForm.self)
        return try await request.handleContactForm(.pet, contact: pet.contactID, item: pet.id, typed: form.typed) {
            _ = try await pets.update(pet.id) { _ in form.draft }
            return .redirect(
                to: ContactPaths.contact(pet.contactID).path + "#pet-\(pet.id)", flash: "The pet was saved.")
        }
    }

    func deletePet(request: Request) async throws -> Response {
        let pet = try await request.pets().pet(try request.pathID(.petID))
        try await request.pets().delete(pet.id)
        return request.redirect(to: ContactPaths.contact(pet.contactID).path + "#pets", flash: "The pet was deleted.")
    }
}
