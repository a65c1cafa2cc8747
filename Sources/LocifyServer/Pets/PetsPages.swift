import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let pet = FormName("pet")
}

/// One pet as a contact page lists it.
struct PetLine: Encodable {
    let id: Int
    let name: String
    let deleteURL: String

    init(_ pet: Pet) {
        id = pet.id
        name = pet.fields.name.map { "\($0) (\(pet.fields.category.label.lowercased()))" } ?? pet.fields.category.label
        deleteURL = PetPaths.delete(pet.id).path
    }
}

/// The contact page's pets and the form for a new one.
struct ContactPetsSection: Encodable {
    static let shownOnPage = 50

    let items: [PetLine]
    let addURL: String
    let categoryField: FormField
    let nameField: FormField
    let isAdding: Bool

    init(contact: Contact, pets: [Pet], problem: FormProblem?) {
        items = pets.map(PetLine.init)
        addURL = PetPaths.contactPets(contact.id).path
        let error = problem?.message(for: .pet)
        isAdding = error != nil
        let chosen = problem?.typed("pet_category_id", in: .pet) ?? ""
        // The common kinds first, as Monica offers them.
        let ordered = PetCategory.all.filter(\.isCommon) + PetCategory.all.filter { !$0.isCommon }
        categoryField = FormField(
            "pet_category_id", label: "Kind of animal", control: .select, error: error, isRequired: true,
            options: [SelectOption(value: "", label: "Choose", isSelected: chosen.isEmpty)]
                + ordered.map {
                    SelectOption(value: String($0.id), label: $0.label, isSelected: String($0.id) == chosen)
                }
        ).identified(as: "new-pet-category")
        nameField = FormField(
            "name", label: "Name", value: problem?.typed("name", in: .pet), hint: "Optional.",
            maxLength: PetDraft.maximumNameLength
        ).identified(as: "new-pet-name")
    }
}
