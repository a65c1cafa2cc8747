import Fluent

struct CreateSignedPolicies: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SignedPoliciesTable.name)
            .identifier()
            .owner()
            .field(SignedPoliciesTable.Column.policy, .int, .required)
            .field(SignedPoliciesTable.Column.ipAddress, .string)
            .field(SignedPoliciesTable.Column.createdAt, .datetime, .required)
            .unique(on: SignedPoliciesTable.Column.owner, .policy)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SignedPoliciesTable.name).delete()
    }
}
