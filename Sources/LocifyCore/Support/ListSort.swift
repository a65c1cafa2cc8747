import Foundation

/// A list's `sort` parameter: a field's wire name, with `-` in front for descending
/// (`created_at`, `-updated_at`, later `name` or `distance` for places).
public struct ListSort<Field>: Equatable, Sendable
where Field: RawRepresentable & CaseIterable & Equatable & Sendable, Field.RawValue == String {
    public var field: Field
    public var isDescending: Bool

    public init(_ field: Field, descending: Bool = false) {
        self.field = field
        isDescending = descending
    }

    /// Every value the parameter accepts, for the error message and the API description.
    public static var allowedValues: [String] {
        Field.allCases.flatMap { [$0.rawValue, "-" + $0.rawValue] }
    }

    /// `text` read as a sort; no text, or empty text, gives `defaultOrder`.
    public static func parse(_ text: String?, default defaultOrder: Self) throws(InvalidListSort) -> Self {
        guard let text, !text.isEmpty else { return defaultOrder }
        let descending = text.hasPrefix("-")
        guard let field = Field(rawValue: descending ? String(text.dropFirst()) : text) else {
            throw InvalidListSort(allowed: allowedValues)
        }
        return ListSort(field, descending: descending)
    }
}

/// A `sort` value that names no field of the list.
public struct InvalidListSort: Error, Equatable, Sendable {
    public let allowed: [String]
}

/// A list's sort field that is a column of the same name.
public protocol ColumnSortField: RawRepresentable, CaseIterable, Equatable, Sendable where RawValue == String {
    /// Whether some rows have no value, to be listed after the others.
    var isNullable: Bool { get }
}

extension ColumnSortField {
    public var column: String { rawValue }
    public var isNullable: Bool { false }
}

/// The sort fields of Monica's lists: when a record was created or last changed.
public enum TimestampSortField: String, ColumnSortField {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
}

extension ListSort where Field == TimestampSortField {
    /// `items` in this order, for a list sorted where it is held rather than by the database; records of
    /// the same moment by id.
    public func sorted<Item>(
        _ items: [Item], created: (Item) -> Date, updated: (Item) -> Date, id: (Item) -> Int
    ) -> [Item] {
        let moment = field == .createdAt ? created : updated
        return items.sorted { a, b in
            let (first, second) = isDescending ? (b, a) : (a, b)
            let (one, other) = (moment(first), moment(second))
            return one == other ? id(first) < id(second) : one < other
        }
    }
}

/// The sort fields of `/api/notes`, whose favourites have a date.
public enum NoteSortField: String, ColumnSortField {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case favoritedAt = "favorited_at"

    public var isNullable: Bool { self == .favoritedAt }
}

/// The sort fields of `/api/tasks`, whose done tasks have a date.
public enum TaskSortField: String, ColumnSortField {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case completedAt = "completed_at"

    public var isNullable: Bool { self == .completedAt }
}

/// The sort fields of the call lists (always newest call first; `sort` orders calls of the same moment).
public enum CallSortField: String, ColumnSortField {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case calledAt = "called_at"
}
