import Fluent

/// The durable background-work table (DESIGN.md, "Background work"): geocoding, notifications,
/// Gravatar look-ups, imports and clean-ups are rows here, so a restart loses none of them.
struct CreateJobs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = JobsTable.Column
        try await database.schema(JobsTable.name)
            .identifier()
            .field(Column.kind, .string, .required)
            .field(Column.payload, .string, .required)
            .field(Column.runAt, .datetime, .required)
            .field(Column.attempts, .int, .required)
            .field(Column.lastError, .string)
            .field(Column.lockedBy, .string)
            .field(Column.lockedUntil, .datetime)
            .field(Column.doneAt, .datetime)
            .field(Column.failedAt, .datetime)
            .field(Column.dedupeKey, .string, .required)
            .field(Column.createdAt, .datetime, .required)
            .unique(on: Column.dedupeKey)
            .create()
        // The runner's question, "what is due?", answered from the index in run order.
        try await database.createIndexes([("jobs_due", [Column.doneAt, .failedAt, .runAt])], on: JobsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(JobsTable.name).delete()
    }
}
