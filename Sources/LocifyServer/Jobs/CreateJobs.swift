import Fluent

/// The durable background-work table (DESIGN.md, "Background work"): geocoding, notifications,
/// Gravatar look-ups, imports and clean-ups are rows here, so a restart loses none of them.
struct CreateJobs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("jobs")
            .field("id", .int, .identifier(auto: true))
            .field("kind", .string, .required)
            .field("payload", .string, .required)
            .field("run_at", .datetime, .required)
            .field("attempts", .int, .required)
            .field("last_error", .string)
            .field("locked_by", .string)
            .field("locked_until", .datetime)
            .field("done_at", .datetime)
            .field("failed_at", .datetime)
            .field("dedupe_key", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "dedupe_key")
            .create()
        // The runner's question, "what is due?", answered from the index in run order.
        try await database.createIndexes([("jobs_due", ["done_at", "failed_at", "run_at"])], on: "jobs")
    }

    func revert(on database: any Database) async throws {
        try await database.schema("jobs").delete()
    }
}
