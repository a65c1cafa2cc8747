import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit

/// Brings places in from a file: the format is recognised by the content, each record is checked as a
/// typed place is, merged into a place already saved when it is the same one, or skipped with the
/// reason. A dry run reports the same without saving. Everything read is read before the one write
/// transaction (see `AvatarService.resolve` for why on SQLite).
struct PlaceImporter {
    let places: PlaceService
    let geocoderEnabled: Bool

    func run(_ data: Data, targetCategoryID: Int?, dryRun: Bool, listName: String?) async throws
        -> PlaceImportReportResource
    {
        guard let format = PlaceImportFormat.detect(data) else {
            throw ValidationFailure(
                field: "file", "The file is not GPX, KML, KMZ, GeoJSON, CSV or a Google Takeout saved-places file.")
        }
        let read = format.read(data, listName: listName)
        if let targetCategoryID { _ = try await places.category(targetCategoryID) }
        let (categories, _) = try await places.categories()
        let categoryIDs = Dictionary(
            categories.map { (PlaceCategory.uniquenessKey($0.0.name), $0.0.id) },
            uniquingKeysWith: { first, _ in first })
        let fallbackCategory = categoryIDs[PlaceCategory.uniquenessKey("Other")] ?? categories.first?.0.id ?? 0
        var known = try await places.all(filter: PlaceFilter())

        var plans: [(name: String, plan: Plan)] = []
        for record in read.places {
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
            if let same = known.first(where: { PlaceImportOutcome.isSame(checked, as: $0) }) {
                plans.append((record.name, .merge(same.id, fields)))
                continue
            }
            plans.append((record.name, .create(fields, category: record.category)))
            // Later records of the same file merge into this one.
            known.append(
                Place(
                    id: 0, uuid: UUID(), ownerID: places.ownerID, categoryID: 0, fields: fields,
                    createdAt: Date(), updatedAt: Date()))
        }
        let rows: [PlaceImportReportResource.Row]
        let plan = plans
        let startingCategories = categoryIDs
        if dryRun {
            rows = try await apply(
                plan, on: places.database, categoryIDs: startingCategories, target: targetCategoryID,
                fallback: fallbackCategory, dryRun: true)
        } else {
            rows = try await places.database.transaction { transaction in
                try await apply(
                    plan, on: transaction, categoryIDs: startingCategories, target: targetCategoryID,
                    fallback: fallbackCategory, dryRun: false)
            }
        }
        return PlaceImportReportResource(
            format: format.rawValue, dryRun: dryRun, rows: rows,
            unreadable: read.issues.map { .init(record: $0.record, reason: $0.reason) })
    }

    enum Plan: Sendable {
        case create(PlaceFields, category: String?)
        case merge(Int, PlaceFields)
        case skip(String)
    }

    /// Carries out the plan on `database` (a transaction unless a dry run) and says what became of each record.
    private func apply(
        _ plans: [(name: String, plan: Plan)], on database: any Database, categoryIDs known: [String: Int],
        target: Int?, fallback: Int, dryRun: Bool
    ) async throws -> [PlaceImportReportResource.Row] {
        let writer = PlaceService(database: database, ownerID: places.ownerID, dependencies: places.dependencies)
        var categoryIDs = known
        var rows: [PlaceImportReportResource.Row] = []
        for (index, (name, plan)) in plans.enumerated() {
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
        return rows
    }
}
