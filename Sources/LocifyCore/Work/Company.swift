import Foundation

/// A company the owner's contacts work or worked at, checked.
public struct CompanyFields: Equatable, Sendable {
    public var name: String
    public var website: String?
    public var numberOfEmployees: Int?

    public init(name: String, website: String? = nil, numberOfEmployees: Int? = nil) {
        self.name = name
        self.website = website
        self.numberOfEmployees = numberOfEmployees
    }
}

/// A stored company of one owner (Monica keeps companies per account, apart from its contacts).
public struct Company: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var fields: CompanyFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(id: Int, uuid: UUID, ownerID: Int, fields: CompanyFields, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.fields = fields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A company as typed.
public struct CompanyDraft: Sendable {
    public var name: String?
    public var website: String?
    public var numberOfEmployees: Int?

    public init(name: String? = nil, website: String? = nil, numberOfEmployees: Int? = nil) {
        self.name = name
        self.website = website
        self.numberOfEmployees = numberOfEmployees
    }

    public init(_ fields: CompanyFields) {
        self.init(name: fields.name, website: fields.website, numberOfEmployees: fields.numberOfEmployees)
    }

    public static let maximumNameLength = 255
    public static let maximumWebsiteLength = 255
    /// More people than work anywhere on Earth; beyond it a number is a typo.
    public static let maximumNumberOfEmployees = 100_000_000

    public static let fieldLabels: [String: String] = [
        "name": "Name", "website": "Website", "number_of_employees": "Number of employees",
    ]

    public func validated() throws(ValidationFailure) -> CompanyFields {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name", limit: Self.maximumNameLength)
        if name == nil { check.fail("name", "The name field is required.") }
        let website = check.text(website, field: "website", label: "Website", limit: Self.maximumWebsiteLength)
        if let numberOfEmployees, !(0...Self.maximumNumberOfEmployees).contains(numberOfEmployees) {
            check.fail("number_of_employees", "Number of employees must be between 0 and 100,000,000.")
        }
        guard let name else { throw ValidationFailure(check.errors) }
        return try check.finish(CompanyFields(name: name, website: website, numberOfEmployees: numberOfEmployees))
    }
}
