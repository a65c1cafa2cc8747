import Foundation
import LocifyCore

/// Monica's occupation (a contact's job at a company, the company whole), with `uuid` and `contact_id`
/// as Locify's other records have them.
public struct OccupationResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "occupation"
    public var title: String
    @Nullable public var description: String?
    @Nullable public var salary: Int?
    @Nullable public var salaryUnit: String?
    public var currentlyWorksHere: Bool
    @Nullable public var startDate: String?
    @Nullable public var endDate: String?
    public var company: CompanyResource
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, title, description, salary
        case salaryUnit = "salary_unit"
        case currentlyWorksHere = "currently_works_here"
        case startDate = "start_date"
        case endDate = "end_date"
        case company, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ occupation: Occupation, company: CompanyResource, contact: ContactShortResource) {
        id = occupation.id
        uuid = occupation.uuid.lowercasedText
        title = occupation.fields.title
        description = occupation.fields.description
        salary = occupation.fields.salary
        salaryUnit = occupation.fields.salaryUnit?.rawValue
        currentlyWorksHere = occupation.fields.currentlyWorksHere
        startDate = occupation.fields.startDate?.description
        endDate = occupation.fields.endDate?.description
        self.company = company
        account = AccountReference(id: occupation.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(occupation.createdAt)
        updatedAt = Timestamp.string(occupation.updatedAt)
        contactID = occupation.contactID
    }
}

/// The body of the occupation routes, read leniently like `ContactInput`.
public struct OccupationInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = OccupationDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: OccupationDraft = OccupationDraft(), presentKeys: Set<String> = []) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: OccupationDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.companyID = reader.integer("company_id")
        draft.title = reader.text("title")
        draft.description = reader.text("description")
        draft.salary = reader.integer("salary")
        draft.salaryUnit = reader.string("salary_unit")
        draft.currentlyWorksHere = reader.boolean("currently_works_here")
        draft.startDate = reader.string("start_date")
        draft.endDate = reader.string("end_date")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: OccupationDraft) -> OccupationDraft {
        var result = existing
        if presentKeys.contains("company_id") { result.companyID = draft.companyID }
        if presentKeys.contains("title") { result.title = draft.title }
        if presentKeys.contains("description") { result.description = draft.description }
        if presentKeys.contains("salary") { result.salary = draft.salary }
        if presentKeys.contains("salary_unit") { result.salaryUnit = draft.salaryUnit }
        if presentKeys.contains("currently_works_here") { result.currentlyWorksHere = draft.currentlyWorksHere }
        if presentKeys.contains("start_date") { result.startDate = draft.startDate }
        if presentKeys.contains("end_date") { result.endDate = draft.endDate }
        return result
    }
}
