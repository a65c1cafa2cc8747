import Foundation
import LocifyCore

/// Monica's tag.
public struct TagResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "tag"
    public var name: String
    public var nameSlug: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name
        case nameSlug = "name_slug"
        case account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ tag: Tag) {
        id = tag.id
        name = tag.name
        nameSlug = tag.slug
        account = AccountReference(id: tag.ownerID)
        createdAt = Timestamp.string(tag.createdAt)
        updatedAt = Timestamp.string(tag.updatedAt)
    }
}

/// The body of `POST /api/tags` and `PUT /api/tags/{id}`.
public struct TagInput: Decodable, Sendable {
    public private(set) var name: String?
    public private(set) var typeErrors: [FieldError] = []

    public init(name: String?) {
        self.name = name
    }

    public init(from decoder: any Decoder) throws {
        var reader = LenientReader(container: try decoder.container(keyedBy: LenientKey.self), labels: ["name": "Tag"])
        name = reader.string("name")
        typeErrors = reader.errors
    }
}

/// The `tags` array of `setTags` (names) and `unsetTag` (ids), each entry as sent: clients send names as
/// text and ids as numbers or text.
public struct TagListInput: Decodable, Sendable {
    public enum Entry: Decodable, Sendable, Equatable {
        case text(String)
        case number(Double)
        case null
        /// true, false, an object or an array: no tag's name or id.
        case other

        public init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .other
            }
        }

        /// The entry as a tag name: text as it is, a whole number as its digits; nil for anything else.
        public var name: String? {
            switch self {
            case .text(let text): text
            case .number(let number): wholeNumber(number).map(String.init)
            case .null, .other: nil
            }
        }

        /// The entry as an id: a whole number, or text holding one.
        public var id: Int? {
            switch self {
            case .text(let text): LooseValue.integer(text)
            case .number(let number): wholeNumber(number)
            case .null, .other: nil
            }
        }

        private func wholeNumber(_ number: Double) -> Int? {
            guard number.rounded() == number, abs(number) <= Double(LooseValue.maximumMagnitude) else { return nil }
            return Int(number)
        }
    }

    /// nil when `tags` is missing, null or not an array.
    public private(set) var entries: [Entry]?

    public init(entries: [Entry]?) {
        self.entries = entries
    }

    enum CodingKeys: String, CodingKey {
        case tags
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entries = try? container.decodeIfPresent([Entry].self, forKey: .tags)
    }
}
