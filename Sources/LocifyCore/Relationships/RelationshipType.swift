/// The four groups Monica sorts relationship types into; a contact's `information.relationships` has one
/// entry per group, in this order.
public enum RelationshipTypeGroup: Int, CaseIterable, Sendable {
    case love = 1
    case family
    case friend
    case work

    public var id: Int { rawValue }

    /// Monica's untranslated key, its `name` on the wire.
    public var name: String {
        switch self {
        case .love: "love"
        case .family: "family"
        case .friend: "friend"
        case .work: "work"
        }
    }

    public static func group(_ id: Int) -> RelationshipTypeGroup? { RelationshipTypeGroup(rawValue: id) }
}

/// What one contact is to another: Monica's default relationship types, the same ids in every account.
/// Monica's API offers no route to add or change a type, so the list is fixed here rather than seeded
/// per account; the ids are those of Monica's default types (`default_relationship_types`), in their order.
public struct RelationshipType: Equatable, Sendable {
    public let id: Int
    /// Monica's untranslated key (`parent`), its `name` on the wire.
    public let name: String
    /// The key of the type the other contact has back (`child` for `parent`); the same key for a type
    /// that goes both ways (`sibling`).
    public let reverseName: String
    public let group: RelationshipTypeGroup
    /// How a person reads it: "Anna is Ben's *parent*".
    public let label: String

    public static let all: [RelationshipType] = {
        let seeds: [(String, String, RelationshipTypeGroup, String)] = [
            ("partner", "partner", .love, "partner"), ("spouse", "spouse", .love, "spouse"),
            ("date", "date", .love, "date"), ("lover", "lover", .love, "lover"),
            ("inlovewith", "lovedby", .love, "in love with"), ("lovedby", "inlovewith", .love, "loved by"),
            ("ex", "ex", .love, "ex-partner"), ("parent", "child", .family, "parent"),
            ("child", "parent", .family, "child"), ("sibling", "sibling", .family, "sibling"),
            ("grandparent", "grandchild", .family, "grandparent"), ("grandchild", "grandparent", .family, "grandchild"),
            ("uncle", "nephew", .family, "uncle or aunt"), ("nephew", "uncle", .family, "nephew or niece"),
            ("cousin", "cousin", .family, "cousin"), ("godfather", "godson", .family, "godparent"),
            ("godson", "godfather", .family, "godchild"), ("friend", "friend", .friend, "friend"),
            ("bestfriend", "bestfriend", .friend, "best friend"), ("colleague", "colleague", .work, "colleague"),
            ("boss", "subordinate", .work, "boss"), ("subordinate", "boss", .work, "subordinate"),
            ("mentor", "protege", .work, "mentor"), ("protege", "mentor", .work, "protégé"),
            // Added to Monica's defaults later, so numbered after the rest.
            ("ex_husband", "ex_husband", .love, "ex-spouse"), ("stepparent", "stepchild", .family, "stepparent"),
            ("stepchild", "stepparent", .family, "stepchild"),
        ]
        return seeds.enumerated().map { index, seed in
            RelationshipType(id: index + 1, name: seed.0, reverseName: seed.1, group: seed.2, label: seed.3)
        }
    }()

    public static func type(_ id: Int) -> RelationshipType? {
        guard (1...all.count).contains(id) else { return nil }
        return all[id - 1]
    }

    /// The type the other contact has back.
    public var reverse: RelationshipType {
        // Every reverse name is one of the list's names (a test holds it).
        Self.all.first { $0.name == reverseName } ?? self
    }
}
