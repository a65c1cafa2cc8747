import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The stored bytes of one account's pictures (photos and Gravatars), one row per SHA-256.
struct PhotoBlobs {
    let database: any Database
    let ownerID: Int

    /// The row holding `bytes`, made if the account has no copy yet.
    func store(_ bytes: [UInt8], digest: String, now: Date) async throws -> Int {
        try await TableWriter(PhotoBlobsTable.self, on: database).insert(
            [.owner: ownerID, .digest: digest, .bytes: Data(bytes), .byteCount: bytes.count, .createdAt: now],
            onConflict: [.owner, .digest])
        guard let id = try await blobID(digest: digest) else { throw AppError.notFound }
        return id
    }

    func blobID(digest: String) async throws -> Int? {
        let rows = try await database.plainRows(
            """
            SELECT "id" FROM "photo_blobs" WHERE "user_id" = \(literal: ownerID) AND "digest" = \(bind: digest)
            """, columns: ["id"])
        return try rows.first?.integer(0)
    }

    /// The bytes of each of `digests` the account holds.
    func bytes(digests: [String]) async throws -> [String: [UInt8]] {
        let wanted = Array(Set(digests))
        guard !wanted.isEmpty else { return [:] }
        let list = SQLQueryString(wanted.map { "'\($0.filter(\.isHexDigit))'" }.joined(separator: ", "))
        let rows = try await database.plainRows(
            """
            SELECT "digest", "bytes" FROM "photo_blobs" WHERE "user_id" = \(literal: ownerID) AND "digest" IN (\(list))
            """, columns: ["digest", "bytes"])
        var found: [String: [UInt8]] = [:]
        for row in rows { found[try row.requiredText(0)] = try row.requiredBytes(1) }
        return found
    }

    /// The size of the stored copy of `digest`, nil when the account has none.
    func byteCount(digest: String) async throws -> Int? {
        let rows = try await database.plainRows(
            """
            SELECT "byte_count" FROM "photo_blobs" WHERE "user_id" = \(literal: ownerID) AND "digest" = \(bind: digest)
            """, columns: ["byte_count"])
        return try rows.first?.integer(0)
    }

    /// `length` bytes of `digest` from `offset` (0-based): large pictures are sent in parts, so a request
    /// holds one part in memory rather than the whole file.
    func part(digest: String, offset: Int, length: Int) async throws -> [UInt8] {
        // SQL's substr counts from 1, on SQLite and PostgreSQL alike, for text and bytes.
        let rows = try await database.plainRows(
            """
            SELECT substr("bytes", \(literal: offset + 1), \(literal: length)) AS "part" FROM "photo_blobs" \
            WHERE "user_id" = \(literal: ownerID) AND "digest" = \(bind: digest)
            """, columns: ["part"])
        guard let row = rows.first else { throw AppError.notFound }
        return try row.requiredBytes(0)
    }

    /// Deletes the account's bytes that no photo, no place's picture, no document (which keeps its files
    /// here) and no cached Gravatar shows any more.
    func deleteUnused() async throws {
        try await TableWriter(PhotoBlobsTable.self, on: database).delete(
            where: """
                "user_id" = \(literal: ownerID) \
                AND NOT EXISTS (SELECT 1 FROM "photos" WHERE "photos"."blob_id" = "photo_blobs"."id") \
                AND NOT EXISTS (SELECT 1 FROM "place_photos" WHERE "place_photos"."blob_id" = "photo_blobs"."id") \
                AND NOT EXISTS (SELECT 1 FROM "documents" WHERE "documents"."blob_id" = "photo_blobs"."id") \
                AND NOT EXISTS (SELECT 1 FROM "gravatar_cache" WHERE "gravatar_cache"."blob_id" = "photo_blobs"."id")
                """)
    }
}
