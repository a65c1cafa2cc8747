import Foundation
import LocifyCore

/// Monica's company, with `uuid` as Locify's other records have it.
public struct CompanyResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "company"
    public var name: String
    @Nullable public var website: String?
    @Nullable public var numberOfEmployees: Int?
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, website
        case numberOfEmployees = "number_of_employees"
        case account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ company: Company) {
        id = company.id
        uuid = company.uuid.lowercasedText
        name = company.fields.name
        website = company.fields.website
        numberOfEmployees = company.fields.numberOfEmployees
        account = AccountReference(id: company.ownerID)
        createdAt = Timestamp.string(company.createdAt)
        updatedAt = Timestamp.string(company.updatedAt)
    }
}

/// The body of the company routes, read leniently like `ContactInput`.
public struct CompanyInput: Decodable, Sendable {
    public private(set) var draft = CompanyDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(draft: CompanyDraft = CompanyDraft(), presentKeys: Set<String> = []) {
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: CompanyDraft.fieldLabels)
        draft.name = reader.text("name")
        draft.website = reader.text("website")
        draft.numberOfEmployees = reader.integer("number_of_employees")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: CompanyDraft) -> CompanyDraft {
        var result = existing
        if presentKeys.contains("name") { result.name = draft.name }
        if presentKeys.contains("website") { result.website = draft.website }
        if presentKeys.contains("number_of_employees") { result.numberOfEmployees = draft.numberOfEmployees }
        return result
    }
}
