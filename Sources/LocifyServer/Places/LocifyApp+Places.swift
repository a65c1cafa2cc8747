import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// How far a command-line import has got: `stage` is "checking" or "saving".
public struct PlaceImportProgress: Sendable {
    public let stage: String
    public let done: Int
    public let total: Int
}

/// The places import and export of the command line.
extension LocifyApp {
    /// Imports a places file into the account, in batches so `progress` can follow it, into the
    /// category `categoryName` when given (made when the account lacks it, except on a dry run). Returns
    /// the report's lines, summary first.
    public static func importPlaces(
        in app: Application, email: String, file: Data, fileName: String, categoryName: String?, dryRun: Bool,
        progress: (@Sendable (PlaceImportProgress) async -> Void)? = nil
    ) async throws -> [String] {
        let owner = try await requireAccount(in: app, email: email)
        let places = PlaceService(database: app.db, ownerID: owner.id, dependencies: app.dependencies)
        do {
            var targetID: Int?
            if let categoryName {
                if let known = try await places.category(named: categoryName) {
                    targetID = known.id
                } else if !dryRun {
                    targetID = try await places.createCategory(named: categoryName).id
                }
            }
            let importer = PlaceImporter(places: places, config: app.locifyConfig, cpuWork: app.cpuWork)
            let report = try await importer.run(
                file, targetCategoryID: targetID, dryRun: dryRun, listName: PlaceImportStore.listName(of: fileName),
                batchSize: PlaceImportStore.batchSize
            ) { step in
                await progress?(PlaceImportProgress(stage: step.stage.rawValue, done: step.done, total: step.total))
            }
            return [report.summary] + report.problems
        } catch let failure as ValidationFailure {
            throw CommandFailure(failure.messages.joined(separator: "\n"))
        }
    }

    /// The account's places as a file of `format` (gpx, kml, kmz, geojson, csv), only those of the
    /// category `categoryName` and only favourites when asked. Returns the bytes and a dated file name.
    public static func exportPlaces(
        in app: Application, email: String, format formatName: String, categoryName: String?, favoritesOnly: Bool
    ) async throws -> (file: Data, fileName: String, count: Int) {
        guard let format = PlaceExportFormat(rawValue: formatName.lowercased()) else {
            throw CommandFailure(
                "The format must be one of \(PlaceExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let owner = try await requireAccount(in: app, email: email)
        let places = PlaceService(database: app.db, ownerID: owner.id, dependencies: app.dependencies)
        var filter = PlaceFilter()
        if let categoryName {
            guard let category = try await places.category(named: categoryName) else {
                throw CommandFailure("The account has no category named “\(categoryName)”.")
            }
            filter.categoryID = category.id
        }
        if favoritesOnly { filter.favorite = true }
        // Pictures' links at the server's public address, signed with the server's key (loaded first).
        _ = try await app.pictureLinks.load(on: app.db, newSecret: app.dependencies.newSecret)
        let base = app.locifyConfig.baseURLForLinks
        let expires = LinkSigner.expiry(now: app.dependencies.now())
        let records = try await places.records(
            filter: filter,
            photoLink: { app.pictureLinks.storedFileLink($0.storedFilename, base: base, expires: expires) },
            includingBytes: format.holdsPictures)
        return (try format.file(records), format.fileName(on: owner.today(now: app.dependencies.now())), records.count)
    }
}

extension PlaceImportReportResource {
    /// One sentence for the whole import: "3 places created, 1 merged, 2 skipped (GPX)."
    var summary: String {
        let created = "\(created) place\(created == 1 ? "" : "s") \(dryRun ? "would be created" : "created")"
        let verb = dryRun ? "would be merged" : "merged"
        return "\(created), \(merged) \(verb) into places already saved, \(skipped) skipped (\(format.uppercased()))."
    }

    /// A sentence for each record left out, with the reason.
    var problems: [String] {
        unreadable.map { "Record \($0.record) was left out: \($0.reason)" }
            + rows.filter { $0.outcome == "skipped" }.map {
                "Record \($0.row) “\($0.name)” was left out: \($0.reason ?? "it could not be read.")"
            }
    }
}
