import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import NIOPosix
import SQLKit

/// Places imports kept between requests: a large file imported in the background, with its progress,
/// and a file previewed on the web and waiting for "Import". The file's bytes are kept until the
/// import is done, then dropped (in `place_import_files` since `MovePlaceImportFiles`).
struct CreatePlaceImports: AsyncMigration {
    static let schema = "place_imports"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("status", .string, .required)
            .field("file_name", .string, .required)
            .field("file", .data, .required)
            .field("target_category_id", .int)
            .field("stage", .string)
            .field("processed", .int, .required)
            .field("total", .int, .required)
            .field("report", .string)
            .field("error", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.createIndexes([("place_imports_by_user", ["user_id", "id"])], on: Self.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.schema).delete()
    }
}

/// An import's file, in a table of its own: SQLite writes a row whole, so every progress note on an
/// import whose row held its file wrote the file again, megabytes twice a second holding the write lock
/// (40–170 ms each for a 5 MB file, measured alone). Files still waiting move over; done and failed
/// imports had dropped theirs.
struct MovePlaceImportFiles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("place_import_files")
            .field("import_id", .int, .identifier(auto: false))
            .foreignKey("import_id", references: CreatePlaceImports.schema, "id", onDelete: .cascade)
            .field("file", .data, .required)
            .create()
        let sql = try database.sqlDatabase()
        try await sql.raw(
            """
            INSERT INTO "place_import_files" ("import_id", "file") SELECT "id", "file" FROM "place_imports"             WHERE "status" IN ('previewed', 'queued', 'running')
            """
        ).run()
        try await sql.raw(#"ALTER TABLE "place_imports" DROP COLUMN "file""#).run()
    }

    func revert(on database: any Database) async throws {
        let sql = try database.sqlDatabase()
        let column: SQLQueryString =
            sql.dialect.name == "postgresql" ? "BYTEA NOT NULL DEFAULT ''" : "BLOB NOT NULL DEFAULT X''"
        try await sql.raw(#"ALTER TABLE "place_imports" ADD COLUMN "file" \#(column)"#).run()
        try await sql.raw(
            """
            UPDATE "place_imports" SET "file" = (SELECT "file" FROM "place_import_files"             WHERE "import_id" = "place_imports"."id") WHERE "id" IN (SELECT "import_id" FROM "place_import_files")
            """
        ).run()
        try await database.schema("place_import_files").delete()
    }
}

/// One stored import, without its file.
struct PlaceImportRecord: Sendable {
    enum Status: String, Sendable {
        case previewed, queued, running, done, failed
    }

    let id: Int
    let ownerID: Int
    let status: Status
    let fileName: String
    let targetCategoryID: Int?
    let stage: String?
    let processed: Int
    let total: Int
    /// A report of 100,000 rows is megabytes of JSON: a record is read on the CPU pool
    /// (`PlaceImportStore.record`), not on an event loop.
    let report: PlaceImportReportResource?
    let error: String?
    let createdAt: Date
    let updatedAt: Date

    static let columns = [
        "id", "user_id", "status", "file_name", "target_category_id", "stage", "processed", "total", "report", "error",
        "created_at", "updated_at",
    ]

    init(row: PlainRow) throws {
        id = try row.requiredInteger(0)
        ownerID = try row.requiredInteger(1)
        status = Status(rawValue: try row.requiredText(2)) ?? .failed
        fileName = try row.requiredText(3)
        targetCategoryID = try row.integer(4)
        stage = try row.text(5)
        processed = try row.requiredInteger(6)
        total = try row.requiredInteger(7)
        report = try row.text(8).flatMap {
            try? JSONDecoder().decode(PlaceImportReportResource.self, from: Data($0.utf8))
        }
        error = try row.text(9)
        createdAt = try row.requiredDate(10)
        updatedAt = try row.requiredDate(11)
    }

    func resource(baseURL: String) -> PlaceImportJobResource {
        PlaceImportJobResource(
            id: id, status: status.rawValue, fileName: fileName, stage: stage, processed: processed, total: total,
            report: report, error: error, url: baseURL + SiteURL.apiImport(id).path, createdAt: createdAt,
            updatedAt: updatedAt)
    }
}

/// One account's stored imports.
struct PlaceImportStore {
    let database: any Database
    let ownerID: Int
    let now: @Sendable () -> Date
    /// Where reports are written and read: a big file's report is too long a job for an event loop.
    let cpuWork: NIOThreadPool

    /// Files with more records than this are imported by a background job, in batches, with progress;
    /// smaller ones in the request, all or nothing.
    static let backgroundThreshold = 200
    /// Records per transaction in the background: 50 hold the write lock for a few milliseconds (250 held
    /// it for tens, and the writes queued behind them missed 50 ms; Benchmarks/write-latency.sh).
    static let batchSize = 50
    /// How often a background import's progress is written down at most: each is a write of its own.
    static let progressInterval = Duration.milliseconds(500)

    func create(
        fileName: String, file: Data, targetCategoryID: Int?, status: PlaceImportRecord.Status, total: Int,
        report: PlaceImportReportResource? = nil
    ) async throws -> Int {
        let time = now()
        var reportText: String?
        if let report { reportText = try await cpuWork.offloaded { try Self.text(of: report) } }
        return try await database.transaction { [reportText] transaction in
            let rows = try await transaction.plainRows(
                """
                INSERT INTO "place_imports" ("user_id", "status", "file_name", "target_category_id", \
                "processed", "total", "report", "created_at", "updated_at") \
                VALUES (\(literal: ownerID), \(bind: status.rawValue), \(bind: fileName), \(bind: targetCategoryID), \
                0, \(literal: total), \(bind: reportText), \(bind: time), \(bind: time)) RETURNING "id"
                """, columns: ["id"])
            guard let id = try rows.first?.integer(0) else { throw AppError.notFound }
            try await transaction.sqlDatabase().raw(
                #"INSERT INTO "place_import_files" ("import_id", "file") VALUES (\#(literal: id), \#(bind: file))"#
            ).run()
            return id
        }
    }

    func record(_ id: Int) async throws -> PlaceImportRecord {
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(PlaceImportRecord.columns)) FROM "place_imports" \
            WHERE "id" = \(literal: id) AND "user_id" = \(literal: ownerID)
            """, columns: PlaceImportRecord.columns)
        guard let row = rows.first else { throw AppError.notFound }
        return try await cpuWork.offloaded { try PlaceImportRecord(row: row) }
    }

    static func text(of report: PlaceImportReportResource) throws -> String {
        String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    }

    func file(of id: Int) async throws -> Data {
        let rows = try await database.plainRows(
            """
            SELECT "file" FROM "place_import_files" WHERE "import_id" = \(literal: id) \
            AND "import_id" IN (SELECT "id" FROM "place_imports" WHERE "user_id" = \(literal: ownerID))
            """, columns: ["file"])
        guard let bytes = try rows.first?.bytes(0) else { throw AppError.notFound }
        return Data(bytes)
    }

    /// Moves a previewed import on, once: false when it was not waiting (confirmed twice, or already run).
    func claimPreview(_ id: Int, as status: PlaceImportRecord.Status) async throws -> Bool {
        let rows = try await database.plainRows(
            """
            UPDATE "place_imports" SET "status" = \(bind: status.rawValue), "updated_at" = \(bind: now()) \
            WHERE "id" = \(literal: id) AND "user_id" = \(literal: ownerID) AND "status" = 'previewed' \
            RETURNING "id"
            """, columns: ["id"])
        return !rows.isEmpty
    }

    func recordProgress(_ id: Int, _ progress: PlaceImporter.Progress) async throws {
        try await database.sqlDatabase().raw(
            """
            UPDATE "place_imports" SET "status" = 'running', "stage" = \(bind: progress.stage.rawValue), \
            "processed" = \(literal: progress.done), "total" = \(literal: progress.total), \
            "updated_at" = \(bind: now()) WHERE "id" = \(literal: id)
            """
        ).run()
    }

    /// The report kept, and the file, no longer needed, dropped.
    func finish(_ id: Int, report: PlaceImportReportResource) async throws {
        let text = try await cpuWork.offloaded { try Self.text(of: report) }
        try await end(
            id, setting: #""status" = 'done', "stage" = NULL, "processed" = "total", "report" = \#(bind: text)"#)
    }

    func fail(_ id: Int, reason: String) async throws {
        try await end(id, setting: #""status" = 'failed', "error" = \#(bind: reason)"#)
    }

    /// Records how import `id` ended and drops its file, in one transaction.
    private func end(_ id: Int, setting outcome: SQLQueryString) async throws {
        try await database.transaction { transaction in
            let sql = try transaction.sqlDatabase()
            try await sql.raw(
                #"UPDATE "place_imports" SET \#(outcome), "updated_at" = \#(bind: now()) WHERE "id" = \#(literal: id)"#
            ).run()
            try await sql.raw(#"DELETE FROM "place_import_files" WHERE "import_id" = \#(literal: id)"#).run()
        }
    }
}

/// Imports a stored file in the background, in batches, recording progress after each.
struct PlaceImportJob: JobHandler {
    struct Payload: Codable, Sendable {
        let importID: Int
        let ownerID: Int
    }

    static let kind = "place-import"
    static let maximumAttempts = 3

    func run(_ payload: Payload, context: JobContext) async throws {
        let store = PlaceImportStore(
            database: context.database, ownerID: payload.ownerID, now: context.dependencies.now,
            cpuWork: context.cpuWork)
        let stored = try await store.record(payload.importID)
        guard stored.status == .queued || stored.status == .running else { return }
        let importer = PlaceImporter(
            places: PlaceService(
                database: context.database, ownerID: payload.ownerID, dependencies: context.dependencies),
            config: context.config, cpuWork: context.cpuWork)
        do {
            _ = try await store.importFile(of: stored, with: importer)
        } catch {
            if context.attempt >= Self.maximumAttempts {
                try? await store.fail(stored.id, reason: "The import stopped: \(error)")
            }
            throw error
        }
    }

    static func enqueue(importID: Int, ownerID: Int, now: Date, on database: any Database) async throws {
        try await JobQueue.enqueue(
            Self.self, Payload(importID: importID, ownerID: ownerID), dedupeKey: "place-import:\(importID)",
            runAt: now, on: database)
    }
}

extension PlaceImportStore {
    /// Imports the stored file of `stored` in batches, recording progress after each, and keeps the
    /// report; a file or target category that is wrong fails the import for good (trying again would
    /// not help) and answers nil. Other errors are thrown, for the caller to retry or report.
    func importFile(of stored: PlaceImportRecord, with importer: PlaceImporter) async throws
        -> PlaceImportReportResource?
    {
        let data = try await file(of: stored.id)
        let lastRecorded = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        do {
            let report = try await importer.run(
                data, targetCategoryID: stored.targetCategoryID, dryRun: false,
                listName: Self.listName(of: stored.fileName), batchSize: Self.batchSize
            ) { progress in
                let now = ContinuousClock.now
                let due = lastRecorded.withLockedValue { last in
                    guard last.map({ now - $0 >= Self.progressInterval }) ?? true else { return false }
                    last = now
                    return true
                }
                if due { try await recordProgress(stored.id, progress) }
            }
            try await finish(stored.id, report: report)
            return report
        } catch let failure as ValidationFailure {
            try await fail(stored.id, reason: failure.messages.joined(separator: " "))
        } catch AppError.notFound {
            try await fail(stored.id, reason: "The category chosen for the places no longer exists.")
        }
        return nil
    }

    /// A Takeout list CSV is named after its list: "Want to go.csv" is the list "Want to go".
    static func listName(of fileName: String) -> String? {
        fileName.split(separator: ".").first.map(String.init)
    }
}
