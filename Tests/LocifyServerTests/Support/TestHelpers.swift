import LocifyCore
import SQLKit
import XCTVapor

@testable import LocifyServer

func unwrapAsync<T>(
    _ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

extension HTTPHeaders {
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        for (name, value) in other { result.replaceOrAdd(name: name, value: value) }
        return result
    }
}

/// `XCTAssertThrowsError` for async expressions: fails when nothing is thrown, else hands the error over.
func assertThrowsAsync<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("expected an error", file: file, line: line)
    } catch {
        check(error)
    }
}

extension Application {
    /// How many rows `table` holds, of every account.
    func count<Table: StoredTable>(_ table: Table.Type) async throws -> Int {
        let rows = try await db.plainRows(#"SELECT COUNT(*) AS "rows" FROM \#(Table.quoted)"#, columns: ["rows"])
        return try rows.first?.requiredInteger(0) ?? 0
    }

    /// How many rows PostgreSQL's planner believes `table` holds (`pg_class.reltuples`): -1 or 0 for a
    /// table never analysed.
    func plannerEstimate(ofRowsIn table: String) async throws -> Double {
        let rows = try await db.plainRows(
            #"SELECT "reltuples"::float8 AS "n" FROM "pg_class" WHERE "relname" = \#(bind: table)"#, columns: ["n"])
        return try rows.first?.requiredDouble(0) ?? -1
    }

    /// Every stored address, of every account, oldest first.
    func storedAddresses() async throws -> [ContactAddress] {
        let columns = AddressesTable.addressColumns
        return try await db.plainRows(
            #"SELECT \#(columns.list) FROM "addresses" ORDER BY "id""#, columns: columns.names
        )
        .map(AddressesTable.address(from:))
    }
}

extension Application {
    /// The stored contact `id`, whoever owns it.
    func storedContact(_ id: Int) async throws -> Contact? {
        try await db.plainRows(
            #"SELECT \#(ContactRows.columnList) FROM "contacts" WHERE "id" = \#(literal: id)"#,
            columns: ContactRows.columns
        ).first.map(ContactRows.contact(from:))
    }
}

/// A stored API token, as the tests look into it.
struct StoredToken {
    let id: Int
    let ownerID: Int
    let label: String
    let secretDigest: String
    let lastUsedAt: Date?
}

extension Application {
    /// The stored user `id` with their password's hash.
    func storedUser(_ id: Int) async throws -> (user: AuthenticatedUser, passwordHash: String)? {
        let columns = UsersTable.userColumns
        return try await db.plainRows(
            #"SELECT \#(columns.list), "password_hash" FROM "users" WHERE "id" = \#(literal: id)"#,
            columns: columns.names + ["password_hash"]
        ).first.map { (try UsersTable.user(from: $0), try $0.requiredText(columns.names.count)) }
    }

    /// The first account made.
    func firstUser() async throws -> (user: AuthenticatedUser, passwordHash: String)? {
        let rows = try await db.plainRows(#"SELECT MIN("id") AS "id" FROM "users""#, columns: ["id"])
        guard let id = try rows.first?.integer(0) else { return nil }
        return try await storedUser(id)
    }

    /// Every stored API token, oldest first.
    func storedTokens() async throws -> [StoredToken] {
        try await db.plainRows(
            #"SELECT "id", "user_id", "label", "secret_digest", "last_used_at" FROM "api_tokens" ORDER BY "id""#,
            columns: ["id", "user_id", "label", "secret_digest", "last_used_at"]
        ).map {
            StoredToken(
                id: try $0.requiredInteger(0), ownerID: try $0.requiredInteger(1), label: try $0.requiredText(2),
                secretDigest: try $0.requiredText(3), lastUsedAt: try $0.date(4))
        }
    }
}
