import Foundation
import LocifyCore

/// Monica's gender.
public struct GenderResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "gender"
    public var name: String
    public var type: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name, type, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ gender: Gender, ownerID: Int, createdAt: Date, updatedAt: Date) {
        id = gender.id
        name = gender.name
        type = gender.type
        account = AccountReference(id: ownerID)
        self.createdAt = Timestamp.string(createdAt)
        self.updatedAt = Timestamp.string(updatedAt)
    }
}

/// The body of `POST /api/genders` and `PUT /api/genders/{id}`. On update a key left out keeps its value
/// (`name` and `type` are then `.none`); sent as null or empty it is checked as missing.
public struct GenderInput: Decodable, Sendable {
    public private(set) var name: String?? = .none
    public private(set) var type: String?? = .none
    /// Monica's web app deletes a gender "and replaces it by" another; the API takes it in the body too.
    public private(set) var replaceBy: Int?
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(
            container: container, labels: ["name": "Name", "type": "Type", "replace_by": "Replacement"])
        if container.contains(LenientKey(stringValue: "name")) { name = .some(reader.string("name")) }
        if container.contains(LenientKey(stringValue: "type")) { type = .some(reader.string("type")) }
        replaceBy = reader.integer("replace_by")
        typeErrors = reader.errors
    }
}
