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

    /// Every stored address, of every account, oldest first.
    func storedAddresses() async throws -> [ContactAddress] {
        let columns = AddressesTable.addressColumns
        return try await db.plainRows(
            #"SELECT \#(columns.list) FROM "addresses" ORDER BY "id""#, columns: columns.names
        )
        .map(AddressesTable.address(from:))
    }
}
