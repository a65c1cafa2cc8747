import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The genders of one owner, seeded with Monica's three the first time they are asked for.
struct GenderService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    /// The owner's genders, oldest first; Monica's three are made when the owner has none.
    func all() async throws -> [Gender] {
        let existing = try await GenderModel.owned(by: ownerID, on: database).sort(\.$id).all()
        if !existing.isEmpty { return try existing.map { try $0.value() } }
        let now = dependencies.now()
        let made = Gender.defaults.map { GenderModel(ownerID: ownerID, name: $0.name, type: $0.type, now: now) }
        try await database.transaction { transaction in
            for model in made { try await model.save(on: transaction) }
        }
        return try made.map { try $0.value() }
    }

    /// One page of the owner's genders, with how many of the owner's contacts have each.
    func page(sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> ([GenderModel], PageWindow) {
        _ = try await all()
        let models = try await GenderModel.owned(by: ownerID, on: database).all()
        let sorted = models.sorted { a, b in
            let (first, second) = sort.isDescending ? (b, a) : (a, b)
            let keys =
                sort.field == .createdAt ? (first.createdAt, second.createdAt) : (first.updatedAt, second.updatedAt)
            return keys.0 == keys.1 ? (first.id ?? 0) < (second.id ?? 0) : keys.0 < keys.1
        }
        let start = min(page.offset, sorted.count)
        return (Array(sorted[start..<min(start + page.limit, sorted.count)]), page.window(total: sorted.count))
    }

    func gender(_ id: Int) async throws -> GenderModel {
        _ = try await all()
        return try await GenderModel.requireOwned(id, by: ownerID, on: database)
    }

    func create(name: String?, type: String?, typeErrors: [FieldError] = []) async throws -> GenderModel {
        _ = try await all()
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Gender.validated(name: name, type: type)
        }
        let model = GenderModel(ownerID: ownerID, name: checked.name, type: checked.type, now: dependencies.now())
        try await model.save(on: database)
        return model
    }

    /// Renames or retypes a gender; a key left out keeps its value.
    func update(_ id: Int, name: String??, type: String??, typeErrors: [FieldError] = []) async throws
        -> GenderModel
    {
        let model = try await gender(id)
        let checked = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Gender.validated(name: name ?? model.name, type: type ?? model.type)
        }
        if checked.name != model.name || checked.type != model.type {
            model.name = checked.name
            model.type = checked.type
            model.updatedAt = dependencies.now()
            try await model.save(on: database)
        }
        return model
    }

    /// How many of the owner's contacts have the gender.
    func contactCount(of id: Int) async throws -> Int {
        try await ContactModel.owned(by: ownerID, on: database).filter(\.$genderID == id).count()
    }

    /// Deletes a gender. Contacts that have it move to `replacement`, which a gender in use needs (as in
    /// Monica); the last gender stays, as contacts need one to choose.
    func delete(_ id: Int, replacement: Int?) async throws {
        let model = try await gender(id)
        let others = try await GenderModel.owned(by: ownerID, on: database).filter(\.$id != id).count()
        guard others > 0 else {
            throw ValidationFailure(field: "id", "This is the last gender: add another before deleting it.")
        }
        let inUse = try await contactCount(of: id)
        if let replacement {
            guard replacement != id else {
                throw ValidationFailure(field: "replace_by", "A gender cannot replace itself: choose another.")
            }
            _ = try await GenderModel.requireOwned(replacement, by: ownerID, on: database)
        } else if inUse > 0 {
            let contacts = inUse == 1 ? "1 contact has" : "\(inUse) contacts have"
            throw ValidationFailure(
                field: "replace_by", "\(contacts) this gender: say which gender replaces it (replace_by).")
        }
        try await database.transaction { transaction in
            if let replacement {
                try await ContactModel.owned(by: ownerID, on: transaction).filter(\.$genderID == id)
                    .set(\.$genderID, to: replacement).update()
            }
            try await model.delete(on: transaction)
        }
    }
}
