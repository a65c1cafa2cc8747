/// One of the account's genders (Monica's list, which each account may change). A new account starts
/// with Monica's three: Man, Woman, Rather not say.
public struct Gender: Hashable, Sendable {
    public let id: Int
    public var name: String
    /// Monica's `gender_type`: M, F, O, and the web's U (unknown) and N (none).
    public var type: String

    public init(id: Int, name: String, type: String) {
        self.id = id
        self.name = name
        self.type = type
    }

    public static let types = ["M", "F", "O", "U", "N"]
    public static let defaults: [(name: String, type: String)] = [
        ("Man", "M"), ("Woman", "F"), ("Rather not say", "O"),
    ]
    public static let maximumNameLength = 255

    /// A gender as typed: `name` required, `type` one of `types` in any case (O when left out).
    public static func validated(name text: String?, type typeText: String?) throws(ValidationFailure)
        -> (name: String, type: String)
    {
        var check = FieldChecker()
        let name = check.text(text, field: "name", label: "Name", limit: maximumNameLength)
        if name == nil { check.fail("name", "Name the gender.") }
        let type = typeText?.trimmingCharacters(in: .whitespaces).uppercased() ?? ""
        if !type.isEmpty, !types.contains(type) {
            check.fail("type", "Type must be M, F, O, U or N.")
        }
        guard let name else { throw ValidationFailure(check.errors) }
        return try check.finish((name, type.isEmpty ? "O" : type))
    }

    /// The gender among `genders` that `text` names: its name ignoring case and accents, or its type
    /// letter (the first gender of that type). vCards and some clients send `gender` this way.
    public static func named(_ text: String, among genders: [Gender]) -> Gender? {
        let key = TextFolding.searchKey([text])
        if let match = genders.first(where: { TextFolding.searchKey([$0.name]) == key }) { return match }
        let letter = text.trimmingCharacters(in: .whitespaces).uppercased()
        return genders.first { $0.type == letter }
    }
}
