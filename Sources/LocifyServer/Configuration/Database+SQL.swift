import Fluent
import SQLKit
import Vapor

extension Database {
    /// The SQL side of Fluent's database, for the read path's plain queries.
    func sqlDatabase() throws -> any SQLDatabase {
        guard let sql = self as? any SQLDatabase else {
            throw Abort(.internalServerError, reason: "the database does not speak SQL")
        }
        return sql
    }
}

extension Database {
    /// Creates each `(name, columns)` index on `table`, in the order given: the migrations' one way to
    /// add the indexes their queries are planned on.
    func createIndexes(_ indexes: [(name: String, columns: [String])], on table: String) async throws {
        let sql = try sqlDatabase()
        for index in indexes {
            var builder = sql.create(index: index.name).on(table)
            for column in index.columns { builder = builder.column(column) }
            try await builder.run()
        }
    }
}

extension SQLQueryString {
    /// Constant column names as one list, quoted once: SQLite and PostgreSQL both quote identifiers with
    /// `"`, and quoting them anew for every query was a sixth of a list request's time. `table` qualifies
    /// each column with a table or alias.
    static func columnList(_ names: [String], of table: String? = nil) -> SQLQueryString {
        let prefix = table.map { "\"\($0)\"." } ?? ""
        return "\(unsafeRaw: names.map { "\(prefix)\"\($0)\"" }.joined(separator: ", "))"
    }
}

extension SQLRow {
    /// A column that may be NULL. Asking for NULL first skips `Optional`'s generic decoding, which costs
    /// more than the value itself.
    func decodeIfPresent<Value: Decodable>(column: String, as type: Value.Type) throws -> Value? {
        try decodeNil(column: column) ? nil : decode(column: column, as: type)
    }
}

extension SQLQueryString {
    /// `+"user_id" = owner AND "id" IN (…)`: one owner's rows picked by id. Without statistics SQLite
    /// would answer "whose?" from an index over all the owner's rows and check each against the list (a
    /// scan of a person's 100,000 places for 15 ids); the `+` makes `user_id` no index term, so each id is
    /// looked up in the primary key. PostgreSQL plans it alike.
    static func owned(
        by ownerID: Int, ids: some Collection<Int>, of table: String? = nil, idColumn: String = "id"
    ) -> SQLQueryString {
        let list = Set(ids).sorted().map(String.init).joined(separator: ", ")
        let prefix = table.map { "\"\($0)\"." } ?? ""
        return SQLQueryString(
            "+" + prefix + #""user_id" = "# + String(ownerID) + " AND " + prefix + "\"\(idColumn)\" IN (" + list + ")")
    }
}

extension Database {
    /// Runs `body` in a savepoint of the open transaction: when it throws, what it wrote is undone and
    /// the transaction goes on (PostgreSQL would otherwise refuse every statement after a failed one).
    func savepoint<Result>(_ body: () async throws -> Result) async throws -> Result {
        let sql = try sqlDatabase()
        try await sql.raw("SAVEPOINT locify_step").run()
        let changesMark = WriteRevision.current?.changes.mark
        do {
            let result = try await body()
            try await sql.raw("RELEASE SAVEPOINT locify_step").run()
            return result
        } catch {
            WriteRevision.current?.reads.forgetAll()
            if let changesMark { WriteRevision.current?.changes.rollBack(to: changesMark) }
            try await sql.raw("ROLLBACK TO SAVEPOINT locify_step").run()
            try await sql.raw("RELEASE SAVEPOINT locify_step").run()
            throw error
        }
    }
}

extension Database {
    /// Has PostgreSQL describe `tables` anew for its planner after an import changed them wholesale,
    /// instead of waiting for autovacuum: until it does, plans assume the tables as they were (after an
    /// import of 10,000 contacts, a sync page's 100 addresses were found by scanning all 10,000 of the
    /// account's: 3 ms instead of a tenth of that). SQLite keeps no statistics here (its plans are
    /// written for that, see `SQLQueryString.owned`).
    func refreshPlannerStatistics(of tables: [String]) async throws {
        let sql = try sqlDatabase()
        guard sql.dialect.name == "postgresql", !tables.isEmpty else { return }
        try await sql.raw("ANALYZE \(unsafeRaw: tables.map { "\"\($0)\"" }.joined(separator: ", "))").run()
    }
}
