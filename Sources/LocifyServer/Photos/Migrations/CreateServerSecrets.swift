import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Secrets the server makes for itself on first start (the key that signs picture links), in the
/// database so every server on it signs alike.
struct CreateServerSecrets: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = ServerSecretsTable.Column
        try await database.schema(ServerSecretsTable.name)
            .field(Column.name, .string, .required)
            .field(Column.value, .string, .required)
            .field(Column.createdAt, .datetime, .required)
            .unique(on: Column.name)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ServerSecretsTable.name).delete()
    }
}
