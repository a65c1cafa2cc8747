import Fluent
import SQLKit
import SQLiteKit

/// The schema that `locifyMigrations` make on SQLite, as SQLite keeps it (`sqlite_master`), so that a
/// new database gets it in one call: run one by one, the migrations' statements took 45 ms of a 100 ms
/// first start, the script about 15 (Benchmarks/startup.sh). The statements and the migrations they
/// stand for are in `SQLiteSchemaSnapshot+Statements.swift`, written by a test that also checks them
/// against the migrations (`SchemaSnapshotTests`); a migration added since runs after the snapshot.
enum SQLiteSchemaSnapshot {
    /// Makes the snapshot's schema, its migration log table included, on `database` (in a transaction)
    /// and returns the migrations of `pending` it stands for; nil when it does not fit: the database
    /// has tables already, or `pending` does not begin with the snapshot's migrations.
    static func make(for pending: [any Migration], on database: any Database) async throws -> [any Migration]? {
        guard !migrations.isEmpty, pending.count >= migrations.count,
            zip(pending, migrations).allSatisfy({ $0.logName == $1 }),
            let sqlite = database as? any SQLiteDatabase
        else { return nil }
        let objects = try await database.plainRows(#"SELECT COUNT(*) AS "n" FROM "sqlite_master""#, columns: ["n"])
        guard try objects.first?.requiredInteger(0) == 0 else { return nil }
        let script = statements.joined(separator: ";\n")
        let made = try await sqlite.withConnection { try await SQLiteStatements.execute(script: script, on: $0) }
        return made ? Array(pending.prefix(migrations.count)) : nil
    }
}
