import Fluent
import Foundation
import LocifyCore
import LocifyAPI

/// How a contact list is ordered.
enum ContactOrder: Equatable {
    /// Monica's `sort` parameter: `created_at` or `updated_at`, `-` for newest first.
    case timestamp(field: TimestampField, descending: Bool)
    /// The web list: starred first, then by name.
    case listing

    enum TimestampField: String, CaseIterable {
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    static let allowedSortValues = TimestampField.allCases.flatMap { [$0.rawValue, "-" + $0.rawValue] }

    /// Parses Monica's `sort` parameter; nil means the default (oldest first).
    static func parse(sort text: String?) throws -> ContactOrder {
        guard let text, !text.isEmpty else { return .timestamp(field: .createdAt, descending: false) }
        let descending = text.hasPrefix("-")
        guard let field = TimestampField(rawValue: descending ? String(text.dropFirst()) : text) else {
            throw AppError.invalidSort(allowed: allowedSortValues)
        }
        return .timestamp(field: field, descending: descending)
    }
}

/// Contacts of one owner: every query here is scoped to `ownerID`, so no route can reach another
/// account's contacts.
struct ContactService {
    let database: any Database
    let ownerID: Int
    let now: Date
    /// The owner's current day, in their timezone: it bounds birth years.
    let today: CalendarDate

    init(database: any Database, owner: AuthenticatedUser, now: Date) {
        self.database = database
        ownerID = owner.id
        self.now = now
        today = owner.today(now: now)
    }

    /// One page of the owner's contacts; archived ones only when asked for (the API never lists them).
    func page(
        matching text: String?, order: ContactOrder, page: Int, limit: Int, archived: Bool = false
    ) async throws -> ([Contact], PageWindow) {
        let base = ContactModel.query(on: database).ownedBy(ownerID).filter(\.$isArchived == archived).matching(text)
        let total = try await base.copy().count()
        let window = PageWindow(page: page, limit: limit, total: total)
        let rows = try await sorted(base, by: order).range(window.offset..<(window.offset + window.limit)).all()
        return (try rows.map { try $0.value() }, window)
    }

    func contact(_ id: Int) async throws -> Contact {
        try await model(id).value()
    }

    func create(_ draft: ContactDraft, typeErrors: [FieldError] = [], uuid: UUID = UUID()) async throws -> Contact {
        let fields = try validate(draft, typeErrors: typeErrors)
        let model = ContactModel(ownerID: ownerID, fields: fields, uuid: uuid, now: now)
        try await model.create(on: database)
        return try model.value()
    }

    /// Applies the keys the client sent; the others keep their stored value.
    func update(_ id: Int, with input: ContactInput) async throws -> Contact {
        let model = try await model(id)
        let draft = input.merged(into: ContactDraft(model.fields))
        model.apply(try validate(draft, typeErrors: input.typeErrors), now: now)
        try await model.save(on: database)
        return try model.value()
    }

    /// Stores `draft` as the whole contact (the web form sends every field).
    func replace(_ id: Int, with draft: ContactDraft, typeErrors: [FieldError] = []) async throws -> Contact {
        let model = try await model(id)
        model.apply(try validate(draft, typeErrors: typeErrors), now: now)
        try await model.save(on: database)
        return try model.value()
    }

    func delete(_ id: Int) async throws {
        try await model(id).delete(on: database)
    }

    private func model(_ id: Int) async throws -> ContactModel {
        guard let model = try await ContactModel.query(on: database).ownedBy(ownerID).filter(\.$id == id).first() else {
            throw AppError.notFound
        }
        return model
    }

    /// Every problem at once: values of the wrong type, then the draft's own rules for the other fields.
    private func validate(_ draft: ContactDraft, typeErrors: [FieldError] = []) throws -> ContactFields {
        var problems = typeErrors
        var fields: ContactFields?
        do {
            fields = try draft.validated(today: today)
        } catch {
            let typedFields = Set(typeErrors.map(\.field))
            // A value of the wrong type is reported once, not again as "missing".
            problems += error.errors.filter { !typedFields.contains($0.field) }
        }
        guard let fields, problems.isEmpty else { throw AppError.invalid(ValidationFailure(problems)) }
        return fields
    }

    private func sorted(_ query: QueryBuilder<ContactModel>, by order: ContactOrder) -> QueryBuilder<ContactModel> {
        switch order {
        case .listing:
            return query.sortedForListing()
        case .timestamp(let field, let descending):
            let direction: DatabaseQuery.Sort.Direction = descending ? .descending : .ascending
            let key: KeyPath<ContactModel, FieldProperty<ContactModel, Date>> =
                field == .createdAt ? \.$createdAt : \.$updatedAt
            return query.sort(key, direction).sort(\.$id, direction)
        }
    }
}

extension ContactDraft {
    /// The stored fields as a draft, so an update can change some keys and keep the rest.
    init(_ fields: ContactFields) {
        self.init(
            firstName: fields.firstName, lastName: fields.lastName, nickname: fields.nickname,
            description: fields.description, email: fields.email, isBirthdateKnown: fields.birthdate != nil,
            birthdateDay: fields.birthdate?.day, birthdateMonth: fields.birthdate?.month,
            birthdateYear: fields.birthdate?.year, birthdateIsAgeBased: fields.birthdate?.isAgeBased ?? false,
            genderID: fields.gender?.monicaID, isStarred: fields.isStarred, isArchived: fields.isArchived)
    }
}
