import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let pet = FormName("pet")
}

/// The fields of a pet's form: the one adding a pet (`item` nil) or the one editing pet `item`, filled with
/// what was typed when that form was refused, else with `stored`.
struct PetFormFields: Encodable {
    let category: FormField
    let name: FormField

    init(stored: PetFields?, item: Int?, problem: FormProblem?) {
        let prefix = item.map { "pet-\($0)" } ?? "new-pet"
        let chosen =
            problem?.typed("pet_category_id", in: .pet, item: item) ?? stored.map { String($0.category.id) } ?? ""
        // The common kinds first, as Monica offers them.
        let ordered = PetCategory.all.filter(\.isCommon) + PetCategory.all.filter { !$0.isCommon }
        category = FormField(
            "pet_category_id", label: "Kind of animal", control: .select,
            error: problem?.message(for: .pet, item: item), isRequired: true,
            options: [SelectOption(value: "", label: "Choose", isSelected: chosen.isEmpty)]
                + ordered.map {
                    SelectOption(value: String($0.id), label: $0.label, isSelected: String($0.id) == chosen)
                }
        ).identified(as: "\(prefix)-category")
        name = FormField(
            "name", label: "Name", value: problem?.typed("name", in: .pet, item: item) ?? stored?.name,
            hint: "Optional.", maxLength: PetDraft.maximumNameLength
        ).identified(as: "\(prefix)-name")
    }
}

/// One pet as a contact page lists it, with its form for changes.
struct PetLine: Encodable {
    let id: Int
    let name: String
    let editURL: String
    let fields: PetFormFields
    let isEditing: Bool
    let deleteURL: String

    init(_ pet: Pet, problem: FormProblem?) {
        id = pet.id
        name = pet.fields.name.map { "\($0) (\(pet.fields.category.label.lowercased()))" } ?? pet.fields.category.label
        editURL = PetPaths.pet(pet.id).path
        fields = PetFormFields(stored: pet.fields, item: pet.id, problem: problem)
        isEditing = problem?.message(for: .pet, item: pet.id) != nil
        deleteURL = PetPaths.delete(pet.id).path
    }
}

/// The contact page's pets and the form for a new one.
struct ContactPetsSection: Encodable {
    static let shownOnPage = 50

    let items: [PetLine]
    let addURL: String
    let fields: PetFormFields
    let isAdding: Bool

    init(contact: Contact, pets: [Pet], problem: FormProblem?) {
        items = pets.map { PetLine($0, problem: problem) }
        addURL = PetPaths.contactPets(contact.id).path
        fields = PetFormFields(stored: nil, item: nil, problem: problem)
        isAdding = problem?.message(for: .pet) != nil
    }
}
