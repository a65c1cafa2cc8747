import FluentKit

/// The columns most tables share, defined once. A table's `Column` names them with the same raw values
/// (`id`, `uuid`, `user_id`, `contact_id`, `created_at`, `updated_at`).
enum SharedColumn: String {
    case id
    case uuid
    case owner = "user_id"
    case contact = "contact_id"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    /// The revision of the row's last change (`WriteRevision`), in a synced table.
    case revision
}

extension SchemaBuilder {
    /// A column of the table being made, named by its `StoredTable.Column`.
    func field(
        _ column: some RawRepresentable<String>, _ type: DatabaseSchema.DataType,
        _ constraints: DatabaseSchema.FieldConstraint...
    ) -> Self {
        field(.definition(name: .key(.init(stringLiteral: column.rawValue)), dataType: type, constraints: constraints))
    }

    /// The row number every table is keyed by.
    func identifier() -> Self {
        field(SharedColumn.id, .int, .identifier(auto: true))
    }

    /// The account the row belongs to; its rows go with it.
    func owner() -> Self {
        field(SharedColumn.owner, .int, .required, .references(UsersTable.name, "id", onDelete: .cascade))
    }

    /// The row's identity outside this server (the API's `uuid`, a file's identifier); unique by the
    /// caller's `.unique(on: "uuid")` where the table promises it.
    func uuid() -> Self {
        field(SharedColumn.uuid, .uuid, .required)
    }

    /// `created_at` and `updated_at`.
    func timestamps() -> Self {
        field(SharedColumn.createdAt, .datetime, .required).field(SharedColumn.updatedAt, .datetime, .required)
    }
}

extension SchemaBuilder {
    /// A unique constraint over columns of the table being made.
    func unique<Column: RawRepresentable<String>>(on columns: Column...) -> Self {
        constraint(.constraint(.unique(fields: columns.map { .key(FieldKey(stringLiteral: $0.rawValue)) }), name: nil))
    }
}

extension Database {
    /// Creates each `(name, columns)` index on `table`, in the order given.
    func createIndexes<Table: StoredTable>(
        _ indexes: [(name: String, columns: [Table.Column])], on table: Table.Type
    ) async throws {
        try await createIndexes(indexes.map { ($0.name, $0.columns.map(\.rawValue)) }, on: Table.name)
    }
}
