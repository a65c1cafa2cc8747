import Foundation

/// A label the owner puts on contacts ("family", "book club"). Names are unique per account, ignoring
/// case, accents and spacing: `key` is what they are compared by.
public struct Tag: Equatable, Sendable {
    public let id: Int
    public let ownerID: Int
    public var name: String
    public let createdAt: Date
    public var updatedAt: Date

    public init(id: Int, ownerID: Int, name: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.ownerID = ownerID
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Monica's `name_slug`: lower-case ASCII words joined by `-`; the name itself when nothing of it is
    /// ASCII ("🎉").
    public var slug: String { Self.slug(of: name) }

    public static func slug(of name: String) -> String {
        let words = TextFolding.ascii(name).lowercased()
            .split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        return words.isEmpty ? name : words.joined(separator: "-")
    }

    /// What two names are the same tag by: "Family", "family " and "Famîly" are one.
    public static func key(of name: String) -> String { TextFolding.searchKey([name]) }

    public static let maximumNameLength = 255

    /// A tag name as typed, trimmed and checked.
    public static func validatedName(_ text: String?, field: String = "name") throws(ValidationFailure) -> String {
        var check = FieldChecker()
        let name = check.text(text, field: field, label: "Tag", limit: maximumNameLength)
        guard let name else { throw ValidationFailure([FieldError(field: field, message: "Name the tag.")]) }
        return try check.finish(name)
    }
}
