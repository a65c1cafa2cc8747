import Fluent
import Foundation
import SQLKit
import XCTVapor

@testable import LocifyServer

/// Each table's `Column` is the one spelling of its columns, so it must name exactly the columns its
/// migrations made.
final class StoredTableTests: XCTestCase {
    func testEveryTablesColumnsAreTheColumnsItsMigrationsMade() async throws {
        try await forEachDatabase { app, _, database in
            for table in locifyTables {
                let query: SQLQueryString =
                    database == .sqlite
                    ? #"SELECT "name" AS "column" FROM pragma_table_info(\#(bind: table.name))"#
                    : #"SELECT "column_name" AS "column" FROM information_schema.columns WHERE "table_name" = \#(bind: table.name)"#
                let rows = try await app.db.plainRows(query, columns: ["column"])
                let made = Set(try rows.map { try $0.requiredText(0) })
                XCTAssertFalse(made.isEmpty, "[\(database)] \(table.name) exists")
                XCTAssertEqual(Set(table.columnNames), made, "[\(database)] \(table.name)")
                XCTAssertEqual(table.columnNames.count, made.count, "[\(database)] \(table.name) names a column twice")
            }
        }
    }

    func testAWriterWritesTheColumnsItIsGivenAndAnswersAnotherAccountsRowAsMissing() async throws {
        try await forEachDatabase { app, clock, database in
            let owner = try await app.makeAccount(email: "writer@example.com").id
            let other = try await app.makeAccount(email: "other@example.com").id
            let now = clock.now
            // A synced table is written in its owner's write (see RevisionLogTests).
            let writing = { (ownerID: Int, body: @escaping @Sendable (TableWriter<TagsTable>) async throws -> Void) in
                try await app.db.write(TagsTable.self, ownedBy: ownerID, at: now, body)
            }
            let id = try await app.db.write(TagsTable.self, ownedBy: owner, at: now) {
                try await $0.insert([
                    .uuid: UUID(), .owner: owner, .name: "Family", .nameKey: "family", .createdAt: now,
                    .updatedAt: now,
                ])
            }
            let read = { (ownerID: Int) in
                try await app.db.requireOwnedRow(
                    id, ownedBy: ownerID, in: TagsTable.self, selecting: TagsTable.tagColumns,
                    read: { try TagsTable.tag(from: $0) })
            }
            let made = try await read(owner)
            XCTAssertEqual(made.name, "Family", "[\(database)]")
            do {
                _ = try await read(other)
                XCTFail("[\(database)] another account's row was read")
            } catch AppError.notFound {}
            do {
                try await writing(other) { try await $0.update(id, ownedBy: other, set: [.name: "Theirs"]) }
                XCTFail("[\(database)] another account's row was updated")
            } catch AppError.notFound {}
            try await writing(owner) {
                try await $0.update(id, ownedBy: owner, set: [.name: "Kin"], computing: [.nameKey: #"'kin'"#])
            }
            let renamed = try await read(owner)
            XCTAssertEqual(renamed.name, "Kin", "[\(database)]")
            XCTAssertEqual(renamed.createdAt, clock.now, "[\(database)] a column not given is kept")
            do {
                try await writing(other) { try await $0.delete(id, ownedBy: other) }
                XCTFail("[\(database)] another account's row was deleted")
            } catch AppError.notFound {}
            try await writing(owner) { try await $0.delete(id, ownedBy: owner) }
            let deletedAgain = try await app.db.write(TagsTable.self, ownedBy: owner, at: now) {
                try await $0.delete(where: #""id" = \#(literal: id)"#)
            }
            XCTAssertEqual(deletedAgain, 0, "[\(database)] gone")
            do {
                try await writing(owner) {
                    try await $0.insert([[.uuid: UUID(), .owner: owner, .name: "A"], [.uuid: UUID(), .owner: owner]])
                }
                XCTFail("[\(database)] rows of different columns were inserted together")
            } catch is WriteFailure {}
        }
    }
}
