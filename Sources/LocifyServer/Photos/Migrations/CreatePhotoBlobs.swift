import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The bytes of photos and Gravatars, once per account and SHA-256 however many photos show them. In the
/// database, so several servers on one PostgreSQL serve the same pictures.
struct CreatePhotoBlobs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = PhotoBlobsTable.Column
        try await database.schema(PhotoBlobsTable.name)
            .identifier()
            .owner()
            .field(Column.digest, .string, .required)
            .field(Column.bytes, .data, .required)
            .field(Column.byteCount, .int, .required)
            .field(Column.createdAt, .datetime, .required)
            .unique(on: Column.owner, .digest)
            .create()
        // PostgreSQL compresses large values and must then read all of one to return a part; stored
        // uncompressed (images hardly compress anyway), a range of a photo reads only its own pages.
        if let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" {
            try await sql.raw(#"ALTER TABLE "photo_blobs" ALTER COLUMN "bytes" SET STORAGE EXTERNAL"#).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PhotoBlobsTable.name).delete()
    }
}
