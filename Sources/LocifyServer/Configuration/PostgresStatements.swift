import FluentPostgresDriver
import NIOConcurrencyHelpers
import PostgresNIO

/// Statements PostgreSQL keeps prepared on each connection, for the few queries that take longer to
/// plan than to run. SQLKit sends every query as an unnamed statement, which PostgreSQL parses and plans
/// anew each time: a sync page's one `UNION ALL` of fourteen ordered branches took about 4 ms to plan
/// and 1.5 ms to run. A kept statement is parsed once per connection; PostgreSQL plans its first five
/// runs for their values and then keeps one plan for all.
///
/// Only for queries whose binds are all whole numbers compared with `BIGINT` columns (every id, owner
/// and revision column is one): PostgreSQL infers each parameter's type from the statement, and the
/// numbers go as 8-byte integers (one compared with an `INTEGER` column would be refused).
enum PostgresStatements {
    /// The statements kept on each open connection, by the statement's text.
    private static let kept = NIOLockedValueBox([ObjectIdentifier: [String: PreparedQuery]]())

    /// How many statements one connection keeps. A pull's text differs with its types and where its
    /// cursor points, so a client asking for ever other types could otherwise fill the server's memory;
    /// a connection that keeps this many runs a new text as an unnamed statement.
    static let perConnection = 64

    /// The rows of `sql` with `binds` on `connection`, preparing it there the first time; nil when the
    /// connection keeps `perConnection` other statements already (then the caller runs it unnamed).
    static func rows(_ sql: String, _ binds: [Int], on connection: PostgresConnection) async throws -> [PostgresRow]? {
        guard let statement = try await prepared(sql, on: connection) else { return nil }
        return try await statement.execute(binds.map { PostgresData(int: $0) }).get()
    }

    /// How many statements are kept on `connection`: for tests.
    static func count(on connection: PostgresConnection) -> Int {
        kept.withLockedValue { $0[ObjectIdentifier(connection)]?.count ?? 0 }
    }

    private static func prepared(_ sql: String, on connection: PostgresConnection) async throws -> PreparedQuery? {
        let key = ObjectIdentifier(connection)
        let (found, count) = kept.withLockedValue { ($0[key]?[sql], $0[key]?.count ?? 0) }
        if let found { return found }
        guard count < perConnection else { return nil }
        let statement = try await connection.prepare(query: sql).get()
        let isFirst = kept.withLockedValue { kept in
            let isFirst = kept[key] == nil
            kept[key, default: [:]][sql] = statement
            return isFirst
        }
        // A closed connection's statements go with it (and so does the identifier, which a new connection
        // may be given).
        if isFirst {
            connection.closeFuture.whenComplete { _ in _ = kept.withLockedValue { $0.removeValue(forKey: key) } }
        }
        return statement
    }
}
