import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// Settings → Places: downloads per format and category, and an import that shows its report before
/// anything is saved. A previewed file waits in `place_imports`; "Import" saves it at once, or in the
/// background with a progress page when it is large.
struct PlaceInterchangeWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePaths.settings, use: page)
        routes.get(PlacePaths.settingsExport, use: export)
        routes.upload(PlacePaths.settingsImport, limit: .megabytes(32), use: preview)
        routes.get(PlacePaths.settingsImportStatus, use: status)
        routes.post(PlacePaths.settingsImportStatus, use: confirm)
    }

    func page(request: Request) async throws -> View {
        try await render(request, errors: [:], chosenCategory: request.queryParameters["category_id"])
    }

    private func render(_ request: Request, errors: FieldMessages, chosenCategory: String?) async throws -> View {
        let (categories, _) = try await request.places().categories()
        let shared = try await request.categorySharing().sharedWithMe()
        return try await request.view.render(
            "settings/places",
            PlaceInterchangePage.Context(
                categories: categories.map(\.0), shared: shared.map(\.labelled), chosenCategory: chosenCategory,
                errors: errors, session: request.pageSession))
    }

    func export(request: Request) async throws -> Response {
        let parameters = request.queryParameters
        return try await request.handleForm {
            guard let format = parameters["format"].flatMap({ PlaceExportFormat(rawValue: $0) }) else {
                throw ValidationFailure(field: "format", "Choose a format.")
            }
            var filter = PlaceFilter()
            if let text = parameters["category_id"], !text.isEmpty {
                // One of the person's categories, or one shared with them: its owner's places.
                filter.categoryID = try await request.categorySharing().access(
                    toCategory: LooseValue.integer(text) ?? 0
                ).categoryID
            }
            if parameters["favorite"] != nil { filter.favorite = true }
            return .page(try await request.placesDownload(format, filter: filter))
        } redraw: { errors in
            try await render(request, errors: errors, chosenCategory: nil)
        }
    }

    /// Reads the file and keeps it with the report of a dry run; nothing is saved until "Import".
    func preview(request: Request) async throws -> Response {
        // The API's form: the page sends no dry_run, as a preview is always made first.
        let form = try await request.decodedUpload(PlacesAPIController.ImportForm.self)
        let chosen = form.categoryID.flatMap { $0.isEmpty ? nil : $0 }
        return try await request.handleForm {
            guard let file = form.file, file.data.readableBytes > 0 else {
                throw ValidationFailure(field: "file", "Choose the file to import.")
            }
            let places = try request.places()
            var target: Int?
            if let chosen { target = try await places.category(LooseValue.integer(chosen) ?? 0).id }
            let upload: (data: Data, format: PlaceImportFormat, read: PlaceImport)
            do {
                upload = try await request.readPlacesFile(file)
            } catch let failure as ValidationFailure {
                // Whatever is wrong with the file is said beside the file.
                throw ValidationFailure(field: "file", failure.plainMessage)
            }
            let report = try await request.placeImporter().run(
                upload.read, format: upload.format, targetCategoryID: target, dryRun: true)
            let id = try await request.placeImports().create(
                fileName: file.filename, file: upload.data, targetCategoryID: target, status: .previewed,
                total: upload.read.places.count, report: report)
            return .page(request.redirect(to: PlacePaths.settingsImportStatus(id).path))
        } redraw: { errors in
            try await render(request, errors: errors, chosenCategory: chosen)
        }
    }

    /// The import's report a page at a time (`?page=`): each outcome's rows of that page.
    func status(request: Request) async throws -> View {
        let imports = try request.placeImports()
        let stored = try await imports.record(try request.pathID(.importID))
        var targetName: String?
        if let id = stored.targetCategoryID { targetName = try? await request.places().category(id).name }
        let page = try PageSelection.parse(
            page: request.queryParameters["page"], limit: nil, defaultLimit: PlaceImportPage.linesPerPage)
        var rows: [String: (rows: [PlaceImportReportResource.Row], window: PageWindow)] = [:]
        if stored.report != nil {
            for outcome in PlaceImportStore.outcomes {
                rows[outcome] = try await imports.rows(of: stored.id, outcome: outcome, page: page)
            }
        }
        return try await request.view.render(
            "settings/place-import",
            PlaceImportPage.Context(
                stored, rows: rows, page: page.page, targetName: targetName, session: request.pageSession))
    }

    /// Saves a previewed import: in the request when small, else by a background job.
    func confirm(request: Request) async throws -> Response {
        let imports = try request.placeImports()
        let stored = try await imports.record(try request.pathID(.importID))
        let back = PlacePaths.settingsImportStatus(stored.id).path
        guard stored.status == .previewed else { return request.redirect(to: back) }
        if stored.total > PlaceImportStore.backgroundThreshold {
            guard try await imports.claimPreview(stored.id, as: .queued) else { return request.redirect(to: back) }
            try await request.queuePlaceImport(stored.id)
            return request.redirect(to: back)
        }
        guard try await imports.claimPreview(stored.id, as: .running) else { return request.redirect(to: back) }
        guard let report = try await imports.importFile(of: stored, with: try request.placeImporter()) else {
            return request.redirect(to: back)
        }
        return request.redirect(to: back, flash: report.summary)
    }
}

/// `GET /settings/places`: the export and import forms.
enum PlaceInterchangePage {
    struct Format: Encodable {
        let value: String
        let label: String
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let exportURL: String
        let importURL: String
        let formatGroup: FormGroup
        let exportCategory: FormField
        let favoritesField: FormField
        let fileField: FormField
        let importCategory: FormField
        let settingsURL: String

        /// `shared`, the categories shared with the person, are exported, not imported into.
        init(
            categories: [PlaceCategory], shared: [PlaceCategory] = [], chosenCategory: String?, errors: FieldMessages,
            session: PageSession
        ) {
            layout = LayoutContext(title: "Import and export places", section: .settings, session: session)
            exportURL = PlacePaths.settingsExport.path
            importURL = PlacePaths.settingsImport.path
            let formats = [
                Format(value: "gpx", label: "GPX (most GPS and map apps)"),
                Format(value: "kml", label: "KML (Google Earth, My Maps)"),
                Format(value: "kmz", label: "KMZ (Organic Maps, Maps.me)"),
                Format(value: "geojson", label: "GeoJSON"),
                Format(value: "csv", label: "CSV (spreadsheets)"),
            ]
            formatGroup = FormGroup(
                "format", legend: "Format",
                fields: formats.map {
                    FormField("format", label: $0.label, control: .radio, value: $0.value, isChecked: $0.value == "gpx")
                        .identified(as: "format-\($0.value)")
                }, errors: errors)
            favoritesField = FormField(
                "favorite", label: "Only favorites", control: .checkbox, value: "true"
            ).identified(as: "export-favorites")
            fileField = FormField(
                "file", label: "File", control: .file, errors: errors,
                hint: "GPX, KML, KMZ, GeoJSON, CSV, or Google Takeout's saved places (Saved Places.json, or a list's "
                    + "CSV). You see what would happen before anything is saved.",
                isRequired: true, accept: ".gpx,.kml,.kmz,.json,.geojson,.csv"
            ).identified(as: "places-file")
            func categoryField(_ name: String, id: String, label: String, all: String, among: [PlaceCategory])
                -> FormField
            {
                FormField(
                    name, label: label, control: .select,
                    options: SelectOption.categories(among, chosen: chosenCategory, none: all)
                ).identified(as: id)
            }
            exportCategory = categoryField(
                "category_id", id: "export-category", label: "Places", all: "All categories",
                among: categories + shared)
            importCategory = categoryField(
                "category_id", id: "import-category", label: "Put them in",
                all: "The categories the file names (made when missing)", among: categories)
            settingsURL = SitePaths.settings.path
        }
    }
}

/// `GET /settings/places/imports/{id}`: a previewed import waiting for "Import", one in progress (the
/// page reloads itself), or the report of one done.
enum PlaceImportPage {
    /// Each outcome's lines on one page: a 100,000-place import's report is a page of its own.
    static let linesPerPage = 100

    struct Line: Encodable {
        let row: Int
        let name: String
        let reason: String?
        let url: String?
    }

    struct Context: Encodable {
        var layout: LayoutContext
        let fileName: String
        let status: String
        let isPreview: Bool
        let isWorking: Bool
        let isDone: Bool
        let error: String?
        let processed: Int
        let total: Int
        let stage: String
        let summary: String?
        let targetName: String?
        let created: [Line]
        let merged: [Line]
        let skipped: [Line]
        let createdCount: Int
        let mergedCount: Int
        let skippedCount: Int
        /// The report's other pages, when its lines take more than one.
        let previousPageURL: String?
        let nextPageURL: String?
        let pageLabel: String?
        let confirmURL: String
        let placesURL: String
        let settingsURL: String

        init(
            _ stored: PlaceImportRecord, rows: [String: (rows: [PlaceImportReportResource.Row], window: PageWindow)],
            page: Int, targetName: String?, session: PageSession
        ) {
            layout = LayoutContext(
                title: stored.status == .previewed ? "Import preview" : "Import", section: .settings, session: session)
            fileName = stored.fileName
            status = stored.status.rawValue
            isPreview = stored.status == .previewed
            isWorking = stored.status == .queued || stored.status == .running
            isDone = stored.status == .done
            if isWorking { layout.refreshSeconds = 2 }
            error = stored.error
            processed = stored.processed
            total = stored.total
            stage =
                switch stored.stage {
                case "checking": "Checking the records"
                case "saving": "Saving the places"
                default: "Waiting to start"
                }
            summary = stored.report?.summary
            self.targetName = targetName
            func lines(_ outcome: String) -> [Line] {
                (rows[outcome]?.rows ?? []).map {
                    Line(
                        row: $0.row, name: $0.name, reason: $0.reason, url: $0.placeID.map { PlacePaths.place($0).path }
                    )
                }
            }
            created = lines("created")
            merged = lines("merged")
            // The unreadable records are few (a file of them is refused) and come with the first page.
            skipped =
                lines("skipped")
                + (page == 1 ? stored.report?.unreadable ?? [] : []).map {
                    Line(row: $0.record, name: "Record \($0.record)", reason: $0.reason, url: nil)
                }
            createdCount = stored.report?.created ?? 0
            mergedCount = stored.report?.merged ?? 0
            skippedCount = stored.report?.skipped ?? 0
            let lastPage = rows.values.map(\.window.lastPage).max() ?? 1
            let here = PlacePaths.settingsImportStatus(stored.id)
            previousPageURL = page > 1 ? here.path(query: [("page", String(min(page - 1, lastPage)))]) : nil
            nextPageURL = page < lastPage ? here.path(query: [("page", String(page + 1))]) : nil
            pageLabel = lastPage > 1 ? "Page \(page) of \(lastPage)" : nil
            confirmURL = PlacePaths.settingsImportStatus(stored.id).path
            placesURL = SitePaths.places.path
            settingsURL = SitePaths.settingsPlaces.path
        }
    }
}
