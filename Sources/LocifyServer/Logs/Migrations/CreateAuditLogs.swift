import Fluent

struct CreateAuditLogs: AsyncMigration {
    static let indexes: [(name: String, columns: [AuditLogTable.Column])] = [
        ("audit_logs_list", [.owner, .id]),
        ("audit_logs_by_contact", [.aboutContact, .id]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(AuditLogTable.name)
            .identifier()
            .owner()
            .field(AuditLogTable.Column.action, .string, .required)
            .field(AuditLogTable.Column.objects, .string, .required)
            // No foreign key: a deleted contact's entries stay in the account's log.
            .field(AuditLogTable.Column.aboutContact, .int)
            .field(AuditLogTable.Column.auditedAt, .datetime, .required)
            .create()
        try await database.createIndexes(Self.indexes, on: AuditLogTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AuditLogTable.name).delete()
    }
}
