import Fluent

struct CreateDAVCards: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = DAVCardsTable.Column
        try await database.schema(DAVCardsTable.name)
            .identifier()
            .owner()
            .contact(required: false, onDelete: .setNull)
            .field(Column.contactUUID, .uuid, .required)
            .field(Column.fileName, .string, .required)
            .field(Column.card, .string, .required)
            .field(Column.uid, .string)
            .field(Column.leftOut, .string, .required)
            .field(Column.updatedAt, .datetime, .required)
            .unique(on: Column.contact)
            .unique(on: Column.owner, .fileName)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DAVCardsTable.name).delete()
    }
}
