import LocifyAPI
import LocifyCore
import Vapor

/// `/api/categories` and `/api/places`: Locify's own routes, in Monica's envelope, pages and errors.
struct PlacesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePaths.apiCategories, use: listCategories)
        routes.post(PlacePaths.apiCategories, use: createCategory)
        routes.put(PlacePaths.apiCategory, use: renameCategory)
        routes.delete(PlacePaths.apiCategory, use: deleteCategory)
        routes.get(PlacePaths.api, use: index)
        routes.post(PlacePaths.api, use: create)
        routes.get(PlacePaths.apiExport, use: export)
        routes.upload(PlacePaths.apiImport, limit: .megabytes(32), use: importPlaces)
        routes.get(PlacePaths.apiPlace, use: show)
        routes.get(PlacePaths.apiImportStatus, use: showImport)
        routes.get(PlacePaths.apiImportRows, use: importRows)
        routes.put(PlacePaths.apiPlace, use: update)
        routes.delete(PlacePaths.apiPlace, use: delete)
        routes.put(PlacePaths.apiFavorite, use: favorite)
        routes.delete(PlacePaths.apiFavorite, use: unfavorite)
    }

    func listCategories(request: Request) async throws -> PlaceCategoryListResource {
        let (categories, favorites) = try await request.places().categories()
        return PlaceCategoryListResource(
            data: categories.map { PlaceCategoryResource($0.0, placesCount: $0.1) }, favoritesCount: favorites)
    }

    func createCategory(request: Request) async throws -> Response {
        let input = try request.jsonInput(PlaceCategoryInput.self, empty: PlaceCategoryInput(name: nil))
        let places = try request.places()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: PlaceCategoriesTable.self, uuid: uuid) { id in
            let count = try await places.categories().categories.first { $0.0.id == id }?.1 ?? 0
            return DataEnvelope(data: PlaceCategoryResource(try await places.category(id), placesCount: count))
        } create: {
            let category = try await places.createCategory(named: input.name, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: PlaceCategoryResource(category, placesCount: 0))
        }
    }

    func renameCategory(request: Request) async throws -> DataEnvelope<PlaceCategoryResource> {
        let id = try request.pathID(.categoryID)
        let places = try request.places()
        _ = try await places.category(id)
        let input = try request.jsonInput(PlaceCategoryInput.self, empty: PlaceCategoryInput(name: nil))
        let category = try await places.renameCategory(id, to: input.name, typeErrors: input.typeErrors)
        let count = try await places.categories().categories.first { $0.0.id == id }?.1 ?? 0
        return DataEnvelope(data: PlaceCategoryResource(category, placesCount: count))
    }

    /// `?move_to={id}` says where the category's places go.
    func deleteCategory(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.categoryID)
        var moveTo: Int?
        if let text = request.queryParameters["move_to"], !text.isEmpty {
            guard let target = LooseValue.integer(text) else {
                throw ValidationFailure(field: "move_to", "move_to must be another of your categories.")
            }
            moveTo = target
        }
        try await request.places().deleteCategory(id, moveTo: moveTo)
        return DeletedResource(id: id)
    }

    func index(request: Request) async throws -> PageResource<PlaceResource> {
        let query = try ListQuery(from: request, defaultSort: PlaceService.defaultSort)
        let filter = try PlaceFilter(parameters: request.queryParameters)
        let places = try await request.places(listing: filter.categoryID)
        let (found, window) = try await places.page(filter: filter, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.placeResources(found, from: places), window: window,
            path: request.absoluteURL(SitePaths.apiPlaces),
            pageURL: query.pageURLs(
                of: SitePaths.apiPlaces, on: request,
                keeping: ["category_id", "favorite", "q", "near", "within_km", "bbox"]))
    }

    /// `?format=gpx|kml|kmz|geojson|csv`, optionally `category_id` and `favorite`: a download with a dated
    /// file name.
    func export(request: Request) async throws -> Response {
        let parameters = request.queryParameters
        guard let format = parameters["format"].flatMap({ PlaceExportFormat(rawValue: $0.lowercased()) }) else {
            throw ValidationFailure(
                field: "format",
                "format must be one of \(PlaceExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        var filterParameters: [String: String] = [:]
        for name in ["category_id", "favorite"] { filterParameters[name] = parameters[name] }
        return try await request.placesDownload(format, filter: try PlaceFilter(parameters: filterParameters))
    }

    struct ImportForm: Content {
        var file: File?
        var categoryID: String?
        var dryRun: String?

        enum CodingKeys: String, CodingKey {
            case file
            case categoryID = "category_id"
            case dryRun = "dry_run"
        }
    }

    /// A multipart `file` (GPX, KML, KMZ, GeoJSON, CSV or Google Takeout, told apart by content), an
    /// optional `category_id` that receives every place, and `dry_run=true` to see the report first.
    ///
    /// A file of more than `PlaceImportStore.backgroundThreshold` records is imported by a background job:
    /// the answer is then 202 with the import, whose `url` tells its progress and, at the end, its report.
    func importPlaces(request: Request) async throws -> Response {
        guard request.headers.contentType?.type == "multipart" else {
            throw ValidationFailure(field: "file", "Send the file as multipart/form-data, in the field file.")
        }
        let form: ImportForm
        do {
            form = try await request.decodedUpload(ImportForm.self)
        } catch {
            throw UnreadableUpload()
        }
        guard let file = form.file, file.data.readableBytes > 0 else {
            throw ValidationFailure(field: "file", "Choose the file to import.")
        }
        var problems: [FieldError] = []
        let target = LooseValue.integer(form.categoryID, field: "category_id", label: "Category", problems: &problems)
        let dryRunText = form.dryRun ?? request.queryParameters["dry_run"]
        let dryRun = dryRunText.flatMap(LooseValue.boolean) ?? false
        if let dryRunText, LooseValue.boolean(dryRunText) == nil {
            problems.append(FieldError(field: "dry_run", message: "dry_run must be true or false."))
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        let (data, format, read) = try await request.readPlacesFile(file)
        if let target { _ = try await request.places().category(target) }
        if !dryRun, read.places.count > PlaceImportStore.backgroundThreshold {
            let imports = try request.placeImports()
            let id = try await imports.create(
                fileName: file.filename, file: data, targetCategoryID: target, status: .queued,
                total: read.places.count)
            try await request.queuePlaceImport(id)
            let stored = try await imports.record(id)
            let response = try await DataEnvelope(data: stored.resource(baseURL: request.baseURL)).encodeResponse(
                status: .accepted, for: request)
            response.headers.replaceOrAdd(name: .location, value: request.absoluteURL(PlacePaths.apiImportStatus(id)))
            return response
        }
        return try await request.placeImporter().run(read, format: format, targetCategoryID: target, dryRun: dryRun)
            .encodeResponse(for: request)
    }

    /// `GET /api/imports/{id}`: a background import's progress, and its report once done, with the
    /// report's first rows (all of them are at `report.rows_url`).
    func showImport(request: Request) async throws -> DataEnvelope<PlaceImportJobResource> {
        let imports = try request.placeImports()
        let stored = try await imports.record(try request.pathID(.importID))
        var resource = stored.resource(baseURL: request.baseURL)
        if resource.report != nil {
            let first = try await imports.rows(of: stored.id, page: PageSelection(limit: PageWindow.maximumLimit))
            resource.report?.rows = first.rows
            resource.report?.rowsURL = request.absoluteURL(PlacePaths.apiImportRows(stored.id))
        }
        return DataEnvelope(data: resource)
    }

    /// `GET /api/imports/{id}/rows`: what became of each record of an import, in file order, a page at a
    /// time (`page`, `limit`, 100 unless given), of one outcome with `outcome`.
    func importRows(request: Request) async throws -> PageResource<PlaceImportReportResource.Row> {
        let id = try request.pathID(.importID)
        let imports = try request.placeImports()
        _ = try await imports.record(id)
        let outcome = request.queryParameters["outcome"]
        if let outcome, !PlaceImportStore.outcomes.contains(outcome) {
            throw ValidationFailure(
                field: "outcome", "outcome must be one of \(PlaceImportStore.outcomes.joined(separator: ", ")).")
        }
        let selection = try request.pageSelection(defaultLimit: PageWindow.maximumLimit)
        let (rows, window) = try await imports.rows(of: id, outcome: outcome, page: selection)
        return PageResource(
            items: rows, window: window, path: request.absoluteURL(PlacePaths.apiImportRows(id)),
            pageURL: request.pageURLs(
                of: PlacePaths.apiImportRows(id),
                keeping: [
                    ("outcome", outcome),
                    ("limit", selection.limit == PageWindow.maximumLimit ? nil : String(selection.limit)),
                ]))
    }

    func show(request: Request) async throws -> DataEnvelope<PlaceResource> {
        let (_, places) = try await request.placeAccess(try request.pathID(.placeID))
        return try await request.placeEnvelope(try await places.place(try request.pathID(.placeID)), from: places)
    }

    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(PlaceInput.self, empty: PlaceInput(draft: PlaceDraft(), presentKeys: []))
        let places = try await request.placesReceiving(categoryID: input.draft.categoryID)
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: PlacesTable.self, uuid: uuid) {
            try await request.placeEnvelope(try await places.place($0), from: places)
        } create: {
            let place = try await places.create(input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return try await request.placeEnvelope(place, from: places)
        }
    }

    func update(request: Request) async throws -> DataEnvelope<PlaceResource> {
        let id = try request.pathID(.placeID)
        let (access, places) = try await request.placeAccess(id, needing: .editor)
        let input = try request.jsonInput(PlaceInput.self, empty: PlaceInput(draft: PlaceDraft(), presentKeys: []))
        if input.presentKeys.contains("category_id") {
            try await request.requireMove(of: access, to: input.draft.categoryID)
        }
        let place = try await places.update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        return try await request.placeEnvelope(place, from: places)
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.placeID)
        try await request.placeAccess(id, needing: .editor).1.delete(id)
        return DeletedResource(id: id)
    }

    func favorite(request: Request) async throws -> DataEnvelope<PlaceResource> {
        try await setFavorite(request, true)
    }

    func unfavorite(request: Request) async throws -> DataEnvelope<PlaceResource> {
        try await setFavorite(request, false)
    }

    private func setFavorite(_ request: Request, _ favorite: Bool) async throws -> DataEnvelope<PlaceResource> {
        // A favorite is the owner's own mark, not something a shared list's members set for them.
        let (_, places) = try await request.placeAccess(try request.pathID(.placeID), needing: .owner)
        let place = try await places.setFavorite(try request.pathID(.placeID), favorite)
        return try await request.placeEnvelope(place, from: places)
    }
}
