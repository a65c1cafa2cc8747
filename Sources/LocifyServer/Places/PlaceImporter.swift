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

    /// The file's format and records, or the error a person is shown for a file that holds no places.
    static func read(_ data: Data, listName: String?) throws -> (PlaceImportFormat, PlaceImport) {
        guard let format = PlaceImportFormat.detect(data) else {
            throw ValidationFailure(
                field: "file", "The file is not GPX, KML, KMZ, GeoJSON, CSV or a Google Takeout saved-places file.")
        }
        return (format, format.read(data, listName: listName))
    }

    /// Imports `data`. Without `batchSize` every record is written in one transaction (all or nothing);
    /// with it, each batch is a transaction of its own and `progress` is told after each, so a long
    /// import shows how far it got and a retried one merges what was already written.
    func run(
        _ data: Data, targetCategoryID: Int?, dryRun: Bool, listName: String?, batchSize: Int? = nil,
        progress: ProgressReport? = nil
    ) async throws -> PlaceImportReportResource {
        let (format, read) = try await cpuWork.offloaded { try Self.read(data, listName: listName) }
        return try await run(
            read, format: format, targetCategoryID: targetCategoryID, dryRun: dryRun, batchSize: batchSize,
            progress: progress)
    }

    /// Imports records already read from a file of `format`.
    func run(
        _ read: PlaceImport, format: PlaceImportFormat, targetCategoryID: Int?, dryRun: Bool, batchSize: Int? = nil,
        progress: ProgressReport? = nil
    ) async throws -> PlaceImportReportResource {
        if let targetCategoryID { _ = try await places.category(targetCategoryID) }
        let (categories, _) = try await places.categories()
        let categoryIDs = Dictionary(
            categories.map { (PlaceCategory.uniquenessKey($0.0.name), $0.0.id) },
            uniquingKeysWith: { first, _ in first })
        let fallbackCategory = categoryIDs[PlaceCategory.uniquenessKey("Other")] ?? categories.first?.0.id ?? 0
        var known = PlaceMatcher(try await places.all(filter: PlaceFilter()))

        var plans: [(name: String, plan: Plan)] = []
        let total = read.places.count
        for (index, record) in read.places.enumerated() {
            if let progress, index % 100 == 0 {
                try await progress(Progress(stage: .checking, done: index, total: total))
            }
            var coordinate = record.coordinate
            if coordinate == nil, let address = record.address, geocoderEnabled {
                coordinate = try? await places.dependencies.geocoder.search(GeocodingQuery(text: address, limit: 1))
                    .first?.coordinate
            }
            guard let coordinate else {
                plans.append((record.name, .skip("It has no position, and its address could not be placed.")))
                continue
            }
            let draft = PlaceDraft(
                name: record.name, address: record.address, latitude: coordinate.latitude,
                longitude: coordinate.longitude, notes: record.notes, categoryID: fallbackCategory,
                isFavorite: record.isFavorite, source: format.rawValue, externalID: record.externalID)
            let fields: PlaceFields
            do {
                fields = try draft.validated().0
            } catch {
                plans.append((record.name, .skip(error.messages.joined(separator: " "))))
                continue
            }
            var checked = record
            checked.coordinate = coordinate
            if let same = known.match(checked) {
                plans.append((record.name, .merge(same.id, fields)))
                continue
            }
            plans.append((record.name, .create(fields, category: record.category)))
            // Later records of the same file merge into this one.
            known.add(
                Place(
                    id: 0, uuid: UUID(), ownerID: places.ownerID, categoryID: 0, fields: fields,
                    createdAt: Date(), updatedAt: Date()))
        }
        var rows: [PlaceImportReportResource.Row] = []
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
                applied = try await places.database.transaction { transaction in
                    try await apply(
                        part, from: start, on: transaction, categoryIDs: categories, target: targetCategoryID,
                        fallback: fallbackCategory, dryRun: false)
                }
            }
            rows += applied.rows
            knownCategories = applied.categoryIDs
            if let progress { try await progress(Progress(stage: .saving, done: rows.count, total: total)) }
        }
        if !dryRun, !plans.isEmpty { try await places.tidyAfterImport() }
        return PlaceImportReportResource(
            format: format.rawValue, dryRun: dryRun, rows: rows,
            unreadable: read.issues.map { .init(record: $0.record, reason: $0.reason) })
    }

    enum Plan: Sendable {
        case create(PlaceFields, category: String?)
        case merge(Int, PlaceFields)
        case skip(String)
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
                let id = dryRun ? nil : try await writer.insert(fields, categoryID: categoryID)
                rows.append(.init(row: index + 1, name: name, outcome: "created", placeID: id, reason: nil))
            }
        }
        return Applied(rows: rows, categoryIDs: categoryIDs)
    }
}
