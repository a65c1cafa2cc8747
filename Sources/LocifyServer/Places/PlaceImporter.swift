import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOPosix
import SQLKit

/// Brings places in from a file: the format is recognised by the content, each record is checked as a
/// typed place is, merged into a place already saved when it is the same one, or skipped with the
/// reason. A dry run reports the same without saving. Everything read is read before the one write
/// transaction (see `AvatarService.resolve` for why on SQLite).
struct PlaceImporter {
    let places: PlaceService
    let geocoderEnabled: Bool
    /// Where a file is read: 100,000 records are too long a parse for an event loop.
    let cpuWork: NIOThreadPool

    init(places: PlaceService, geocoderEnabled: Bool, cpuWork: NIOThreadPool) {
        self.places = places
        self.geocoderEnabled = geocoderEnabled
        self.cpuWork = cpuWork
    }

    /// Records with only an address are placed through the geocoder unless `LOCIFY_GEOCODER=off`.
    init(places: PlaceService, config: LocifyConfig, cpuWork: NIOThreadPool) {
        self.init(places: places, geocoderEnabled: config.geocoder != .off, cpuWork: cpuWork)
    }

    /// Where an import has got to, for a progress bar or `GET /api/imports/{id}`.
    struct Progress: Sendable, Equatable {
        enum Stage: String, Sendable {
            /// Each record checked, and placed through the geocoder when it has only an address.
            case checking
            /// The checked records written.
            case saving
        }

        let stage: Stage
        let done: Int
        let total: Int
    }

    typealias ProgressReport = @Sendable (Progress) async throws -> Void

    /// Keeps a batch's report rows in the batch's own transaction, so a long import's report is written
    /// as it goes (and read a page at a time) instead of in one write of megabytes at the end.
    typealias RowKeeper = @Sendable ([PlaceImportReportResource.Row], _ on: any Database) async throws -> Void

    /// The file's format and records, or the error a person is shown for a file that holds no places.
    static func read(_ data: Data, listName: String?) throws -> (PlaceImportFormat, PlaceImport) {
        guard let format = PlaceImportFormat.detect(data) else {
            throw ValidationFailure(
                field: "file", "The file is not GPX, KML, KMZ, GeoJSON, CSV or a Google Takeout saved-places file.")
        }
        return (format, format.read(data, listName: listName))
    }

    /// Imports `data`. Without `batchSize` every record is written in one transaction (all or nothing);
    /// with it, each batch is a transaction of its own, followed by a rest as long, and `progress` is told
    /// after each, so a long import shows how far it got, a retried one merges what was already written,
    /// and other writes are not held up behind it. With `rowKeeper` the rows go to it, batch by batch,
    /// and the report returned holds only the counts.
    func run(
        _ data: Data, targetCategoryID: Int?, dryRun: Bool, listName: String?, batchSize: Int? = nil,
        progress: ProgressReport? = nil, rowKeeper: RowKeeper? = nil
    ) async throws -> PlaceImportReportResource {
        let (format, read) = try await cpuWork.offloaded { try Self.read(data, listName: listName) }
        return try await run(
            read, format: format, targetCategoryID: targetCategoryID, dryRun: dryRun, batchSize: batchSize,
            progress: progress, rowKeeper: rowKeeper)
    }

    /// Imports records already read from a file of `format`.
    func run(
        _ read: PlaceImport, format: PlaceImportFormat, targetCategoryID: Int?, dryRun: Bool, batchSize: Int? = nil,
        progress: ProgressReport? = nil, rowKeeper: RowKeeper? = nil
    ) async throws -> PlaceImportReportResource {
        if let targetCategoryID { _ = try await places.category(targetCategoryID) }
        let (categories, _) = try await places.categories()
        let categoryIDs = Dictionary(
            categories.map { (PlaceCategory.uniquenessKey($0.0.name), $0.0.id) },
            uniquingKeysWith: { first, _ in first })
        let fallbackCategory = categoryIDs[PlaceCategory.uniquenessKey("Other")] ?? categories.first?.0.id ?? 0
        let saved = try await places.all(filter: PlaceFilter())
        let ownerID = places.ownerID
        // Checking 100,000 records is seconds of CPU: on an event loop it would hold up every request
        // that loop serves, so it runs on the CPU pool, a part at a time, with progress between parts.
        let planner = try await cpuWork.offloaded {
            ImportPlanner(
                saved: saved, ownerID: ownerID, fallbackCategory: fallbackCategory, source: format.rawValue)
        }
        let total = read.places.count
        for start in stride(from: 0, to: total, by: Self.checkingPart) {
            if let progress { try await progress(Progress(stage: .checking, done: start, total: total)) }
            var part = Array(read.places[start..<min(start + Self.checkingPart, total)])
            if geocoderEnabled {
                for index in part.indices where part[index].coordinate == nil {
                    guard let address = part[index].address else { continue }
                    let found = try? await places.dependencies.geocoder.search(
                        GeocodingQuery(text: address, limit: 1)
                    ).first
                    part[index].coordinate = found?.coordinate
                    part[index].coordinatePrecision = found.map { CoordinatePrecision($0.precision) }
                }
            }
            try await cpuWork.offloaded { [part] in planner.plan(part) }
        }
        let plans = planner.plans
        var rows: [PlaceImportReportResource.Row] = []
        var counts: [String: Int] = [:]
        var knownCategories = categoryIDs
        let batch = max(1, batchSize ?? plans.count)
        for start in stride(from: 0, to: plans.count, by: batch) {
            let part = Array(plans[start..<min(start + batch, plans.count)])
            let categories = knownCategories
            let applied: Applied
            if dryRun {
                applied = try await apply(
                    part, from: start, on: places.database, categoryIDs: categories, target: targetCategoryID,
                    fallback: fallbackCategory, dryRun: true)
            } else {
                let began = ContinuousClock.now
                // One revision a batch: a client pulling meanwhile sees whole batches.
                applied = try await places.database.write(
                    ownedBy: places.ownerID, at: places.dependencies.now()
                ) { transaction in
                    let applied = try await apply(
                        part, from: start, on: transaction, categoryIDs: categories, target: targetCategoryID,
                        fallback: fallbackCategory, dryRun: false)
                    try await rowKeeper?(applied.rows, transaction)
                    return applied
                }
                // A batch holds SQLite's one write lock; resting as long as it took leaves the database
                // at least half the time to everyone else's writes, which then wait one batch at most.
                if batchSize != nil { try await Task.sleep(for: ContinuousClock.now - began) }
            }
            if rowKeeper == nil || dryRun { rows += applied.rows }
            for row in applied.rows { counts[row.outcome, default: 0] += 1 }
            knownCategories = applied.categoryIDs
            if let progress {
                try await progress(Progress(stage: .saving, done: start + applied.rows.count, total: total))
            }
        }
        if !dryRun, !plans.isEmpty { try await places.tidyAfterImport() }
        return PlaceImportReportResource(
            format: format.rawValue, dryRun: dryRun, created: counts["created", default: 0],
            merged: counts["merged", default: 0], skipped: counts["skipped", default: 0] + read.issues.count,
            rows: rows, unreadable: read.issues.map { .init(record: $0.record, reason: $0.reason) }, rowsURL: nil)
    }

    enum Plan: Sendable {
        case create(PlaceFields, category: String?)
        case merge(Int, PlaceFields)
        case skip(String)
    }

    /// Records checked a part at a time and a progress report between parts.
    static let checkingPart = 100

    /// Decides what becomes of each record, in file order: skipped with the reason, merged into a place
    /// already saved (or made earlier in the same file), or created. Pure CPU work, for the CPU pool.
    /// A class because its matcher of every saved place is too big to copy for each part; the importer
    /// hands it one part at a time and waits for each, so it is never used from two threads at once.
    final class ImportPlanner: @unchecked Sendable {
        private var known: PlaceMatcher
        private(set) var plans: [(name: String, plan: Plan)] = []
        private let ownerID: Int
        private let fallbackCategory: Int
        private let source: String

        init(saved: [Place], ownerID: Int, fallbackCategory: Int, source: String) {
            self.known = PlaceMatcher(saved)
            self.ownerID = ownerID
            self.fallbackCategory = fallbackCategory
            self.source = source
        }

        /// `records` already placed through the geocoder where they could be.
        func plan(_ records: [PlaceRecord]) {
            for record in records {
                guard let coordinate = record.coordinate else {
                    plans.append((record.name, .skip("It has no position, and its address could not be placed.")))
                    continue
                }
                var draft = PlaceDraft(
                    name: record.name, address: record.address, latitude: coordinate.latitude,
                    longitude: coordinate.longitude, notes: record.notes, categoryID: fallbackCategory,
                    isFavorite: record.isFavorite, rating: record.rating, source: source,
                    externalID: record.externalID)
                draft.coordinatePrecision = record.coordinatePrecision
                let fields: PlaceFields
                do {
                    fields = try draft.validated().0
                } catch {
                    plans.append((record.name, .skip(error.messages.joined(separator: " "))))
                    continue
                }
                if let same = known.match(record) {
                    plans.append((record.name, .merge(same.id, fields)))
                    continue
                }
                plans.append((record.name, .create(fields, category: record.category)))
                // Later records of the same file merge into this one.
                known.add(
                    Place(
                        id: 0, uuid: UUID(), ownerID: ownerID, categoryID: 0, fields: fields, createdAt: Date(),
                        updatedAt: Date()))
            }
        }
    }

    private struct Applied: Sendable {
        let rows: [PlaceImportReportResource.Row]
        /// The categories known afterwards: those the batch made are added.
        let categoryIDs: [String: Int]
    }

    /// Carries out the plans, the first of which is record `offset + 1`, on `database` (a transaction
    /// unless a dry run) and says what became of each record.
    private func apply(
        _ plans: [(name: String, plan: Plan)], from offset: Int, on database: any Database,
        categoryIDs known: [String: Int], target: Int?, fallback: Int, dryRun: Bool
    ) async throws -> Applied {
        let writer = PlaceService(database: database, ownerID: places.ownerID, dependencies: places.dependencies)
        var categoryIDs = known
        var rows: [PlaceImportReportResource.Row] = []
        var created: [(row: Int, fields: PlaceFields, categoryID: Int)] = []
        for (position, (name, plan)) in plans.enumerated() {
            let index = offset + position
            switch plan {
            case .skip(let reason):
                rows.append(.init(row: index + 1, name: name, outcome: "skipped", placeID: nil, reason: reason))
            case .merge(let id, let fields):
                if !dryRun, id != 0 { try await writer.fillGaps(of: id, with: fields) }
                rows.append(
                    .init(row: index + 1, name: name, outcome: "merged", placeID: id == 0 ? nil : id, reason: nil))
            case .create(let fields, let categoryName):
                var categoryID = target ?? fallback
                if target == nil, let categoryName, !categoryName.isEmpty {
                    let key = PlaceCategory.uniquenessKey(categoryName)
                    if let existing = categoryIDs[key] {
                        categoryID = existing
                    } else if !dryRun, let name = try? PlaceCategory.validatedName(categoryName, existing: []) {
                        // A category the file names and the person lacks is made, as they would make it.
                        categoryID = try await writer.insertCategory(named: name)
                        categoryIDs[key] = categoryID
                    }
                }
                created.append((rows.count, fields, categoryID))
                rows.append(.init(row: index + 1, name: name, outcome: "created", placeID: nil, reason: nil))
            }
        }
        if !dryRun {
            let ids = try await writer.insert(created.map { ($0.fields, $0.categoryID) })
            for (place, id) in zip(created, ids) { rows[place.row].placeID = id }
        }
        return Applied(rows: rows, categoryIDs: categoryIDs)
    }
}
