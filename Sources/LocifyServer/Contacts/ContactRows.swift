import FluentKit
import Foundation
import LocifyCore
import SQLKit

/// The read path of contacts: plain SQL, and rows read column by column into Core values (Fluent's
/// models reflected over their properties for every row they decoded). Every feature's list query
/// follows this shape (see the README's contributor notes).
enum ContactRows {
    /// The positions of the columns a `Contact` is read from, in select-list order.
    enum Column: Int, CaseIterable {
        case id, uuid, userID, firstName, lastName, nickname, description, birthdateDay, birthdateMonth
        case birthdateYear, birthdateIsAgeBased, genderID, isStarred, isArchived, defaultAvatarColor, createdAt
        case updatedAt, avatarChoice, avatarPhotoID, avatarSource, avatarDigest, job, company
        case foodPreferences, firstMetStory, firstMetWhere, firstMetDay, firstMetMonth, firstMetYear
        case firstMetIsAgeBased, firstMetThrough
        /// Read from `genders` and `users` in the contact's own query (see `columnList`).
        case genderName, genderType, isMe
    }

    /// The contact's own columns, in `Column`'s order.
    private static let contactColumns = ContactsTable.selection([
        .id, .uuid, .owner, .firstName, .lastName, .nickname, .description, .birthdateDay, .birthdateMonth,
        .birthdateYear, .birthdateIsAgeBased, .genderID, .isStarred, .isArchived, .defaultAvatarColor, .createdAt,
        .updatedAt, .avatarChoice, .avatarPhotoID, .avatarSource, .avatarDigest, .job, .company,
        .foodPreferences, .firstMetStory, .firstMetWhere, .firstMetDay, .firstMetMonth, .firstMetYear,
        .firstMetIsAgeBased, .firstMetThrough,
    ])
    static let columns = contactColumns.names + ["gender_name", "gender_type", "is_me"]
    /// The contact's own columns, then its gender's name and type and whether it is its owner's "me"
    /// contact, each looked up by primary key for the rows the query returns (a join would change every
    /// query that reads contacts).
    static let columnList =
        contactColumns.list
            + """
            , (SELECT "name" FROM "genders" WHERE "genders"."id" = "contacts"."gender_id") AS "gender_name", \
            (SELECT "type" FROM "genders" WHERE "genders"."id" = "contacts"."gender_id") AS "gender_type", \
            COALESCE((SELECT "me_contact_id" FROM "users" WHERE "users"."id" = "contacts"."user_id") \
            = "contacts"."id", false) AS "is_me"
            """

    /// A contact from a row that selected `columnList` first; further columns may follow.
    static func contact(from row: PlainRow) throws -> Contact {
        func at(_ column: Column) -> Int { column.rawValue }
        let birthdate = try day(in: row, .birthdateDay, .birthdateMonth, .birthdateYear, .birthdateIsAgeBased)
        let fields = ContactFields(
            firstName: try row.requiredText(at(.firstName)), lastName: try row.text(at(.lastName)),
            nickname: try row.text(at(.nickname)), description: try row.text(at(.description)),
            birthdate: birthdate, gender: try gender(from: row), job: try row.text(at(.job)),
            company: try row.text(at(.company)),
            isStarred: try row.requiredBool(at(.isStarred)), isArchived: try row.requiredBool(at(.isArchived)))
        return Contact(
            id: try row.requiredInteger(at(.id)), uuid: try row.requiredUUID(at(.uuid)),
            ownerID: try row.requiredInteger(at(.userID)), fields: fields,
            defaultAvatarColor: try row.requiredText(at(.defaultAvatarColor)),
            avatar: ContactAvatar(
                choice: try row.text(at(.avatarChoice)).flatMap(AvatarChoice.init(rawValue:)),
                photoID: try row.integer(at(.avatarPhotoID)),
                source: AvatarSource(rawValue: try row.requiredText(at(.avatarSource))) ?? .initials,
                imageDigest: try row.text(at(.avatarDigest))),
            introduction: try introduction(from: row), foodPreferences: try row.text(at(.foodPreferences)),
            isMe: try row.requiredBool(at(.isMe)),
            createdAt: try row.requiredDate(at(.createdAt)), updatedAt: try row.requiredDate(at(.updatedAt)))
    }

    private static func introduction(from row: PlainRow) throws -> ContactIntroduction {
        func at(_ column: Column) -> Int { column.rawValue }
        return ContactIntroduction(
            story: try row.text(at(.firstMetStory)), place: try row.text(at(.firstMetWhere)),
            firstMet: try day(in: row, .firstMetDay, .firstMetMonth, .firstMetYear, .firstMetIsAgeBased),
            throughContactID: try row.integer(at(.firstMetThrough)))
    }

    /// A birthday-like day kept in four columns; nil unless its day and month are.
    private static func day(
        in row: PlainRow, _ day: Column, _ month: Column, _ year: Column, _ isAgeBased: Column
    ) throws -> Birthdate? {
        guard let dayNumber = try row.integer(day.rawValue), let monthNumber = try row.integer(month.rawValue) else {
            return nil
        }
        return Birthdate(
            day: dayNumber, month: monthNumber, year: try row.integer(year.rawValue),
            isAgeBased: try row.requiredBool(isAgeBased.rawValue))
    }

    /// The contact `id` if `ownerID` owns it, with `extra` selected after its columns (read from position
    /// `columns.count` on); another account's contact is as absent as a missing one.
    static func requireContact(
        _ id: Int, ownedBy ownerID: Int, selectingAlso extra: [ContactsTable.Column] = [], on database: any Database
    ) async throws -> PlainRow {
        let also = extra.isEmpty ? "" : ", " + SQLQueryString.columnList(extra.map(\.rawValue))
        let rows = try await database.plainRows(
            "SELECT \(columnList)\(also) FROM \"contacts\" WHERE \(ContactsTable.ownedRow(id, ownedBy: ownerID))",
            columns: columns + extra.map(\.rawValue))
        guard let row = rows.first else { throw AppError.notFound }
        return row
    }

    private static func gender(from row: PlainRow) throws -> Gender? {
        guard let id = try row.integer(Column.genderID.rawValue), let name = try row.text(Column.genderName.rawValue)
        else { return nil }
        return Gender(id: id, name: name, type: try row.text(Column.genderType.rawValue) ?? "O")
    }
}
