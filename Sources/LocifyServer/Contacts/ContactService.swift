import Fluent
import Foundation
import LocifyCore

/// The fields a contact list can be sorted by (`sort=created_at`, `sort=-updated_at`).
enum ContactSortField: String, CaseIterable, Sendable {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
}

/// How a contact list is ordered.
enum ContactOrder: Equatable {
    /// A `sort` parameter: oldest first unless it says otherwise.
    case sorted(ListSort<ContactSortField>)
    /// The web list: starred first, then by name.
    case listing

    static let defaultSort = ListSort(ContactSortField.createdAt)
}

/// Contacts of one owner. The shape every service copies: each query is scoped to the owner, results
/// are Core values, input comes as Core drafts, and nothing here knows about HTTP or wire types, so
/// the API, the web pages, the CLI and imports all call the same code.
struct ContactService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies
    /// The owner's current day, in their timezone: it bounds birth years.
    let today: CalendarDate

    init(database: any Database, owner: AuthenticatedUser, dependencies: LocifyDependencies) {
        self.database = database
        ownerID = owner.id
        self.dependencies = dependencies
        today = owner.today(now: dependencies.now())
    }

    /// One page of the owner's contacts; archived ones only when asked for (the API never lists them).
    func page(
        matching text: String?, order: ContactOrder, page: PageSelection, archived: Bool = false
    ) async throws -> ([Contact], PageWindow) {
        let base = ContactModel.owned(by: ownerID, on: database).filter(\.$isArchived == archived).matching(text)
        let window = page.window(total: try await base.copy().count())
        let rows = try await sorted(base, by: order).range(window.offset..<(window.offset + window.limit)).all()
        return (try rows.map { try $0.value() }, window)
    }

    func contact(_ id: Int) async throws -> Contact {
        try await ContactModel.requireOwned(id, by: ownerID, on: database).value()
    }

    /// The emails of the owner's contacts, for skipping duplicates when importing or seeding.
    func emails() async throws -> Set<String> {
        Set(try await ContactModel.owned(by: ownerID, on: database).all().compactMap(\.email))
    }

    /// `typeErrors` are the values a client sent that could not be read (text for a number).
    func create(_ draft: ContactDraft, typeErrors: [FieldError] = []) async throws -> Contact {
        let fields = try draft.validated(today: today, typeErrors: typeErrors)
        let model = ContactModel(
            ownerID: ownerID, fields: fields, uuid: dependencies.newUUID(), now: dependencies.now())
        try await model.create(on: database)
        return try model.value()
    }

    /// Changes the stored contact: `change` gets the stored fields as a draft and returns the new draft,
    /// so an API update can apply only the keys it was sent and a form can replace every field.
    func update(
        _ id: Int, typeErrors: [FieldError] = [], _ change: (ContactDraft) -> ContactDraft
    ) async throws -> Contact {
        let model = try await ContactModel.requireOwned(id, by: ownerID, on: database)
        let draft = change(ContactDraft(model.fields))
        model.apply(try draft.validated(today: today, typeErrors: typeErrors), now: dependencies.now())
        try await model.save(on: database)
        return try model.value()
    }

    func delete(_ id: Int) async throws {
        try await ContactModel.requireOwned(id, by: ownerID, on: database).delete(on: database)
    }

    private func sorted(_ query: QueryBuilder<ContactModel>, by order: ContactOrder) -> QueryBuilder<ContactModel> {
        switch order {
        case .listing:
            return query.sortedForListing()
        case .sorted(let sort):
            let direction: DatabaseQuery.Sort.Direction = sort.isDescending ? .descending : .ascending
            let key: KeyPath<ContactModel, FieldProperty<ContactModel, Date>> =
                sort.field == .createdAt ? \.$createdAt : \.$updatedAt
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
