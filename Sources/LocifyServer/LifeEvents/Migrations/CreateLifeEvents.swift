import Fluent

struct CreateLifeEvents: AsyncMigration {
    static let indexes: [(name: String, columns: [LifeEventsTable.Column])] = [
        ("life_events_list", [.owner, .id]),
        ("life_events_by_contact", [.contact, .happenedOn]),
        ("life_events_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(LifeEventsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(LifeEventsTable.Column.type, .int, .required)
            .field(LifeEventsTable.Column.happenedOn, .string, .required)
            .field(LifeEventsTable.Column.name, .string)
            .field(LifeEventsTable.Column.note, .string)
            .timestamps()
            .field(LifeEventsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: LifeEventsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: LifeEventsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LifeEventsTable.name).delete()
    }
}
