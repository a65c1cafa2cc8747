import Foundation
import LocifyCore

/// The body of the address routes. Like `ContactInput` it reads loose types and notes values it cannot
/// use. `country_id` is read as `country` when `country` is left out or null (clients written from
/// Monica's old documentation send it); beside a `country` it is not read, as one that differed could
/// only be a guess at which was meant, and the API's description states no rule across the two.
public struct AddressInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = PostalAddressDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: PostalAddressDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: PostalAddressDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.label = reader.string("name")
        draft.street = reader.string("street")
        draft.city = reader.string("city")
        draft.province = reader.string("province")
        draft.postalCode = reader.string("postal_code")
        let country = reader.string("country")
        let countryID = reader.string("country_id")
        draft.country = country ?? countryID
        draft.latitude = reader.number("latitude")
        draft.longitude = reader.number("longitude")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        if presentKeys.contains("country_id") { presentKeys.insert("country") }
        typeErrors = reader.errors.map {
            $0.field == "country_id" ? FieldError(field: "country", message: $0.message) : $0
        }
    }

    /// The fields an update keeps from the stored address: those this body does not send.
    public var keptFields: Set<String> {
        Set(PostalAddressDraft.fieldLabels.keys).subtracting(presentKeys)
    }

    /// Whether this body sets the coordinates (to values or to nothing).
    public var setsCoordinates: Bool { presentKeys.contains("latitude") || presentKeys.contains("longitude") }

    /// `existing` with the sent keys applied: what an update stores. The coordinates are one value:
    /// sending either replaces both.
    public func merged(into existing: PostalAddressDraft) -> PostalAddressDraft {
        var result = existing
        func take<Value>(_ key: String, _ path: WritableKeyPath<PostalAddressDraft, Value>) {
            if presentKeys.contains(key) { result[keyPath: path] = draft[keyPath: path] }
        }
        take("name", \.label)
        take("street", \.street)
        take("city", \.city)
        take("province", \.province)
        take("postal_code", \.postalCode)
        take("country", \.country)
        if setsCoordinates {
            result.latitude = draft.latitude
            result.longitude = draft.longitude
        }
        return result
    }
}
