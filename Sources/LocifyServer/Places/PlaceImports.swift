import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import NIOPosix
import SQLKit

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
    /// The counts and unreadable records; its rows are in `place_import_rows` (`PlaceImportStore.rows`).
    let report: PlaceImportReportResource?
    let error: String?
    let createdAt: Date
    let updatedAt: Date

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
            report: report, error: error, url: baseURL + PlacePaths.apiImportStatus(id).path, createdAt: createdAt,
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
    /// Records per transaction in the background: 25 hold the write lock for about 6 ms. Each write
    /// that comes meanwhile waits for the batch, so the batch's length is most of their p99: with 50
    /// (about 11 ms) it was 43–50 ms, with 25 it is 24–39 ms, for an import about a third longer
    /// (Benchmarks/write-latency.sh: 100,000 places in 74–80 s instead of 53–57).
    static let batchSize = 25
    /// What can become of a record, as its report row says.
    static let outcomes = ["created", "merged", "skipped"]
    /// How often a background import's progress is written down at most: each is a write of its own.
    static let progressInterval = Duration.milliseconds(500)

    func create(
        fileName: String, file: Data, targetCategoryID: Int?, status: PlaceImportRecord.Status, total: Int,
        report: PlaceImportReportResource? = nil
    ) async throws -> Int {
        let time = now()
        var reportText: String?
        if let report { reportText = try await cpuWork.offloaded { try Self.summaryText(of: report) } }
        return try await database.transaction { [reportText] transaction in
            let id = try await TableWriter(PlaceImportsTable.self, on: transaction).insert([
                .owner: ownerID, .status: status.rawValue, .fileName: fileName, .targetCategoryID: targetCategoryID,
                .processed: 0, .total: total, .report: reportText, .createdAt: time, .updatedAt: time,
            ])
            try await TableWriter(PlaceImportFilesTable.self, on: transaction).insert([[.importID: id, .file: file]])
            if let report { try await Self.insert(report.rows, of: id, on: transaction) }
            return id
        }
    }

    /// Adds `rows` to the report of import `id`; a row already there (from an earlier try of the same
    /// import) is replaced.
    static func insert(_ rows: [PlaceImportReportResource.Row], of id: Int, on database: any Database) async throws {
        // Six values a row: 500 rows stay under both databases' limits on one statement's values.
        let writer = TableWriter(PlaceImportRowsTable.self, on: database)
        for start in stride(from: 0, to: rows.count, by: 500) {
            try await writer.insert(
                rows[start..<min(start + 500, rows.count)].map { row in
                    [
                        .importID: id, .row: row.row, .name: row.name, .outcome: row.outcome, .placeID: row.placeID,
                        .reason: row.reason,
                    ]
                }, onConflict: [.importID, .row], updating: [.name, .outcome, .placeID, .reason])
        }
    }

    /// One page of import `id`'s report rows in file order (those of one outcome when `outcome` is
    /// given), and where the page lies among them all.
    func rows(of id: Int, outcome: String? = nil, page: PageSelection) async throws
        -> (rows: [PlaceImportReportResource.Row], window: PageWindow)
    {
        let owned = ownsImport(id)
        let only: SQLQueryString = outcome.map { #" AND "outcome" = \#(bind: $0)"# } ?? ""
        let counted = try await database.plainRows(
            #"SELECT COUNT(*) FROM "place_import_rows" WHERE \#(owned)\#(only)"#, columns: ["count"])
        let window = PageWindow(page: page.page, limit: page.limit, total: try counted.first?.integer(0) ?? 0)
        let columns = ["row", "name", "outcome", "place_id", "reason"]
        let found = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(columns)) FROM "place_import_rows" WHERE \(owned)\(only) \
            ORDER BY "row" LIMIT \(literal: window.limit) OFFSET \(literal: window.offset)
            """, columns: columns)
        let rows = try found.map { row in
            PlaceImportReportResource.Row(
                row: try row.requiredInteger(0), name: try row.requiredText(1), outcome: try row.requiredText(2),
                placeID: try row.integer(3), reason: try row.text(4))
        }
        return (rows, window)
    }

    func record(_ id: Int) async throws -> PlaceImportRecord {
        let rows = try await database.plainRows(
            """
            SELECT \(PlaceImportsTable.recordColumns.list) FROM "place_imports" \
            WHERE \(PlaceImportsTable.ownedRow(id, ownedBy: ownerID))
            """, columns: PlaceImportsTable.recordColumns.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try await cpuWork.offloaded { try PlaceImportRecord(row: row) }
    }

    /// What `place_imports.report` keeps of a report: its counts and unreadable records, its rows being
    /// in `place_import_rows`.
    static func summaryText(of report: PlaceImportReportResource) throws -> String {
        var summary = report
        summary.rows = []
        return String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
    }

    /// The rows of one of the owner's imports, in a table keyed by `import_id` (its files, its report rows).
    private func ownsImport(_ id: Int) -> SQLQueryString {
        #""import_id" = \#(literal: id) AND "import_id" IN (SELECT "id" FROM "place_imports" WHERE "user_id" = \#(literal: ownerID))"#
    }

    func file(of id: Int) async throws -> Data {
        let rows = try await database.plainRows(
            #"SELECT "file" FROM "place_import_files" WHERE \#(ownsImport(id))"#, columns: ["file"])
        guard let bytes = try rows.first?.bytes(0) else { throw AppError.notFound }
        return Data(bytes)
    }

    /// Moves a previewed import on, once: false when it was not waiting (confirmed twice, or already run).
    func claimPreview(_ id: Int, as status: PlaceImportRecord.Status) async throws -> Bool {
        let claimed = try await TableWriter(PlaceImportsTable.self, on: database).update(
            [.status: status.rawValue, .updatedAt: now()],
            where: "\(PlaceImportsTable.ownedRow(id, ownedBy: ownerID)) AND \"status\" = 'previewed'")
        return claimed > 0
    }

    func recordProgress(_ id: Int, _ progress: PlaceImporter.Progress) async throws {
        try await TableWriter(PlaceImportsTable.self, on: database).update(
            [
                .status: PlaceImportRecord.Status.running.rawValue, .stage: progress.stage.rawValue,
                .processed: progress.done, .total: progress.total, .updatedAt: now(),
            ], where: #""id" = \#(literal: id)"#)
    }

    /// The report's counts kept (its rows were kept batch by batch), and the file, no longer needed, dropped.
    func finish(_ id: Int, report: PlaceImportReportResource) async throws {
        let text = try Self.summaryText(of: report)
        try await end(
            id,
            setting: [.status: PlaceImportRecord.Status.done.rawValue, .stage: String?.none, .report: text],
            computing: [.processed: #""total""#])
    }

    func fail(_ id: Int, reason: String) async throws {
        try await end(id, setting: [.status: PlaceImportRecord.Status.failed.rawValue, .error: reason])
    }

    /// Records how import `id` ended and drops its file, in one transaction.
    private func end(
        _ id: Int, setting values: TableWriter<PlaceImportsTable>.Values,
        computing computed: [PlaceImportsTable.Column: SQLQueryString] = [:]
    ) async throws {
        var values = values
        values[.updatedAt] = now()
        try await database.transaction { [values] transaction in
            try await TableWriter(PlaceImportsTable.self, on: transaction).update(
                values, computing: computed, where: #""id" = \#(literal: id)"#)
            try await TableWriter(PlaceImportFilesTable.self, on: transaction).delete(
                where: #""import_id" = \#(literal: id)"#)
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
            } rowKeeper: { rows, database in
                try await Self.insert(rows, of: stored.id, on: database)
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
