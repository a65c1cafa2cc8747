import Foundation
import LocifyCore
import SQLKit

/// The read path of contacts: plain SQL, and rows read column by column into Core values. Fluent's
/// models reflect over their properties for every row they decode; the list and the detail read here
/// instead, while writes and migrations stay with Fluent. Every feature's list query follows this
/// shape (see the README's contributor notes).
enum ContactRows {
    /// The columns a `Contact` is read from, in one place for every query.
    static let columns = [
        "id", "uuid", "user_id", "first_name", "last_name", "nickname", "description", "email", "birthdate_day",
        "birthdate_month", "birthdate_year", "birthdate_is_age_based", "gender", "is_starred", "is_archived",
        "default_avatar_color", "created_at", "updated_at",
    ]

    static let columnList = SQLQueryString.columnList(columns)

    static func contact(from row: some SQLRow) throws -> Contact {
        let day = try row.decodeIfPresent(column: "birthdate_day", as: Int.self)
        let month = try row.decodeIfPresent(column: "birthdate_month", as: Int.self)
        var birthdate: Birthdate?
        if let day, let month {
            birthdate = Birthdate(
                day: day, month: month, year: try row.decodeIfPresent(column: "birthdate_year", as: Int.self),
                isAgeBased: try row.decode(column: "birthdate_is_age_based", as: Bool.self))
        }
        let fields = ContactFields(
            firstName: try row.decode(column: "first_name", as: String.self),
            lastName: try row.decodeIfPresent(column: "last_name", as: String.self),
            nickname: try row.decodeIfPresent(column: "nickname", as: String.self),
            description: try row.decodeIfPresent(column: "description", as: String.self),
            email: try row.decodeIfPresent(column: "email", as: String.self),
            birthdate: birthdate,
            gender: try row.decodeIfPresent(column: "gender", as: String.self).flatMap(Gender.init(rawValue:)),
            isStarred: try row.decode(column: "is_starred", as: Bool.self),
            isArchived: try row.decode(column: "is_archived", as: Bool.self))
        return Contact(
            id: try row.decode(column: "id", as: Int.self), uuid: try uuid(row, "uuid"),
            ownerID: try row.decode(column: "user_id", as: Int.self), fields: fields,
            defaultAvatarColor: try row.decode(column: "default_avatar_color", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self))
    }

    /// SQLite keeps UUIDs as text, which Foundation parses slowly through `Decodable`; PostgreSQL has a
    /// uuid type of its own.
    private static func uuid(_ row: some SQLRow, _ column: String) throws -> UUID {
        if let text = try? row.decode(column: column, as: String.self), let uuid = UUID(canonicalText: text) {
            return uuid
        }
        return try row.decode(column: column, as: UUID.self)
    }
}
