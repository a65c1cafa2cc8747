import LocifyCore
import Vapor

/// The places pages of the web app: the map (the home page), the categories, a category's places, a
/// place, and the add and edit forms.
struct PlacesWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePaths.map, use: map)
        routes.get(PlacePaths.mapPoint, use: mapPoint)
        routes.get(PlacePaths.list, use: categories)
        routes.post(PlacePaths.list, use: create)
        routes.get(PlacePaths.new, use: new)
        routes.get(PlacePaths.favorites, use: favorites)
        routes.post(PlacePaths.categories, use: createCategory)
        routes.get(PlacePaths.category, use: category)
        routes.post(PlacePaths.renameCategory, use: renameCategory)
        routes.get(PlacePaths.deleteCategory, use: confirmDeleteCategory)
        routes.post(PlacePaths.deleteCategory, use: deleteCategory)
        routes.get(PlacePaths.place, use: show)
        routes.get(PlacePaths.edit, use: edit)
        routes.post(PlacePaths.edit, use: update)
        routes.post(PlacePaths.favorite, use: favorite)
        routes.get(PlacePaths.delete, use: confirmDelete)
        routes.post(PlacePaths.delete, use: delete)
    }

    // MARK: The map

    func map(request: Request) async throws -> View {
        try await request.view.render("map", MapPage.load(request))
    }

    func mapPoint(request: Request) async throws -> View {
        guard let coordinate = request.coordinateParameters else { throw AppError.notFound }
        var found: GeocodingResult?
        if request.application.locifyConfig.geocoder != .off {
            found = try? await request.dependencies.geocoder.reverse(coordinate)
        }
        return try await request.view.render(
            "places/point",
            MapPointPage.Context(
                coordinate: coordinate, found: found, preferredApp: request.preferredMapsApp,
                session: request.pageSession))
    }

    // MARK: Categories

    func categories(request: Request) async throws -> View {
        try await categoriesPage(request)
    }

    /// The person's categories and those shared with them; a refused new name or rename beside its field.
    private func categoriesPage(
        _ request: Request, errors: FieldMessages = [:], typedName: String? = nil,
        renaming: (id: Int, name: String, errors: FieldMessages)? = nil
    ) async throws -> View {
        let (categories, favorites) = try await request.places().categories()
        let shared = try await request.categorySharing().sharedWithMe()
        return try await request.view.render(
            "places/categories",
            PlaceCategoriesPage.Context(
                categories: categories, favorites: favorites, shared: shared, errors: errors, typedName: typedName,
                renaming: renaming, session: request.pageSession))
    }

    struct CategoryForm: Content {
        var name: String?
    }

    func createCategory(request: Request) async throws -> Response {
        let form = try request.content.decode(CategoryForm.self)
        return try await request.handleForm {
            let category = try await request.places().createCategory(named: form.name)
            return .redirect(to: SitePaths.places.path, flash: "The category “\(category.name)” was added.")
        } redraw: { errors in
            try await categoriesPage(request, errors: errors, typedName: form.name)
        }
    }

    func renameCategory(request: Request) async throws -> Response {
        let id = try request.pathID(.categoryID)
        let places = try request.places()
        let before = try await places.category(id)
        let form = try request.content.decode(CategoryForm.self)
        return try await request.handleForm {
            let category = try await places.renameCategory(id, to: form.name)
            let flash =
                category.name == before.name
                ? "The category is still called “\(category.name)”."
                : "“\(before.name)” is now called “\(category.name)”."
            return .redirect(to: SitePaths.places.path, flash: flash)
        } redraw: { errors in
            try await categoriesPage(request, renaming: (id, form.name ?? "", errors))
        }
    }

    func confirmDeleteCategory(request: Request) async throws -> View {
        try await deleteCategoryPage(request, errors: [:])
    }

    private func deleteCategoryPage(_ request: Request, errors: FieldMessages) async throws -> View {
        let id = try request.pathID(.categoryID)
        let (categories, _) = try await request.places().categories()
        guard let (category, count) = categories.first(where: { $0.0.id == id }) else { throw AppError.notFound }
        return try await request.view.render(
            "places/delete-category",
            DeletePlaceCategoryPage.Context(
                category: category, count: count, others: categories.map(\.0).filter { $0.id != id }, errors: errors,
                session: request.pageSession))
    }

    struct DeleteCategoryForm: Content {
        var moveTo: String?

        enum CodingKeys: String, CodingKey {
            case moveTo = "move_to"
        }
    }

    func deleteCategory(request: Request) async throws -> Response {
        let id = try request.pathID(.categoryID)
        let places = try request.places()
        let category = try await places.category(id)
        let form = try request.content.decode(DeleteCategoryForm.self)
        let moveTo = form.moveTo.flatMap { LooseValue.integer($0) }
        return try await request.handleForm {
            do {
                try await places.deleteCategory(id, moveTo: moveTo)
            } catch let failure as ValidationFailure {
                // The last category, or no target chosen: said beside the choice of target, in the page's words.
                let noTarget = moveTo == nil && failure.errors.contains(where: { $0.field == "move_to" })
                throw ValidationFailure(
                    field: "move_to", noTarget ? "Choose the category that receives its places." : failure.plainMessage)
            } catch AppError.notFound where moveTo != nil {
                throw ValidationFailure(field: "move_to", "Choose one of your other categories.")
            }
            var flash = "The category “\(category.name)” was deleted."
            if let moveTo, let target = try? await places.category(moveTo) {
                flash += " Its places are now in “\(target.name)”."
            }
            return .redirect(to: SitePaths.places.path, flash: flash)
        } redraw: { errors in
            try await deleteCategoryPage(request, errors: errors)
        }
    }

    // MARK: Lists

    /// One of the person's categories, or one shared with them (its owner's places, and an Add place
    /// button when they may edit).
    func category(request: Request) async throws -> View {
        let id = try request.pathID(.categoryID)
        let sharing = try request.categorySharing()
        let access = try await sharing.access(toCategory: id)
        let newPlaceURL = PlacePaths.new.path(query: [("category_id", String(id))])
        guard access.isOwner else {
            let shared = try await sharing.sharedCategory(id)
            return try await list(
                request, heading: shared.category.name, site: PlacePaths.category(id),
                filter: PlaceFilter(categoryID: id),
                newPlaceURL: access.role.canEditPlaces ? newPlaceURL : nil,
                exportURL: SitePaths.settingsPlaces.path(query: [("category_id", String(id))]), shared: shared,
                places: request.places(of: access))
        }
        let category = try await request.places().category(id)
        return try await list(
            request, heading: category.name, site: PlacePaths.category(category.id),
            filter: PlaceFilter(categoryID: category.id), newPlaceURL: newPlaceURL,
            exportURL: SitePaths.settingsPlaces.path(query: [("category_id", String(category.id))]),
            sharingURL: CategorySharePaths.sharing(category.id).path)
    }

    func favorites(request: Request) async throws -> View {
        try await list(
            request, heading: "Favorites", site: PlacePaths.favorites, filter: PlaceFilter(favorite: true),
            newPlaceURL: PlacePaths.new.path, exportURL: SitePaths.settingsPlaces.path)
    }

    private func list(
        _ request: Request, heading: String, site: some SiteAddress, filter base: PlaceFilter, newPlaceURL: String?,
        exportURL: String?, sharingURL: String? = nil, shared: CategorySharing.SharedCategory? = nil,
        places ownersPlaces: PlaceService? = nil
    ) async throws -> View {
        let query = PlaceListPage.Query(request)
        var filter = base
        filter.text = PlaceFilter(text: query.text).text
        filter.minimumRating = Int(query.minimumRating)
        var errors: FieldMessages = [:]
        var nearLabel: String?
        if !query.near.isEmpty {
            if let point = PlaceFilter.coordinate(query.near) {
                filter.near = point
                nearLabel = MapLinks.text(point)
            } else if let found = await request.geocoderHits(text: query.near, near: nil, limit: 1).first {
                filter.near = found.coordinate
                nearLabel = NewPlaceLink.shortName(of: found.name)
            } else {
                errors["near"] = "“\(query.near)” could not be found on the map; try a town or latitude,longitude."
            }
            if filter.near != nil, let within = Double(query.within) { filter.withinKilometers = within }
        }
        if query.sort == "distance", filter.near == nil, errors["near"] == nil {
            errors["sort"] = "Sorting by distance needs a point: fill in “Near” or use your location."
        }
        let sort: ListSort<PlaceSortField> =
            switch query.sort {
            case "distance" where filter.near != nil: ListSort(.distance)
            case "newest": ListSort(.createdAt, descending: true)
            case "rating": ListSort(.rating, descending: true)
            default: ListSort(.name)
            }
        let places = try ownersPlaces ?? request.places()
        let (found, window) = try await places.page(
            filter: filter, sort: sort, page: PageSelection(page: query.page, limit: PlaceListPage.pageSize))
        let names = try await places.categoryNames(for: found)
        let covers = try await PlacePhotoService(
            database: request.db, ownerID: places.ownerID, dependencies: request.dependencies
        ).covers(ofPlaces: found.map(\.place.id))
        return try await request.view.render(
            "places/list",
            PlaceListPage.Context(
                heading: heading, list: site, query: query, found: found, window: window, categoryNames: names,
                errors: errors, nearLabel: nearLabel, newPlaceURL: newPlaceURL, exportURL: exportURL,
                sharingURL: sharingURL, shared: shared, tilesEnabled: request.mapTilesEnabled,
                session: request.pageSession, filter: base,
                coverURLs: covers.mapValues { request.storedFileLink($0.storedFilename) }))
    }

    // MARK: A place

    func show(request: Request) async throws -> View {
        try await request.view.render("places/show", PlacePage.load(request, id: try request.pathID(.placeID)))
    }

    func new(request: Request) async throws -> View {
        let parameters = request.queryParameters
        var form = PlaceForm(
            name: parameters["name"], address: parameters["address"], categoryID: parameters["category_id"],
            latitude: parameters["lat"], longitude: parameters["lon"])
        let categories = try await request.places().categories().categories.map(\.0)
        let shared = try await request.categorySharing().editableSharedCategories()
        // A point the map named ("cafe") comes with the category a place of that kind goes to.
        if form.categoryID == nil, let kind = parameters["kind"],
            let category = PlaceCategory.suggested(forKind: kind, among: categories)
        {
            form.categoryID = String(category.id)
            form.suggestedKind = kind.replacingOccurrences(of: "_", with: " ")
        }
        // A point the page was opened at (a pin dropped on the map): searches look around it, and without
        // a search the named places there are offered.
        let point = request.coordinateParameters
        var search: (String, [PlaceSearchHit])?
        var nearby: [PlaceSearchHit] = []
        let text = parameters["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !text.isEmpty {
            let hits =
                if let point {
                    await request.suggestions(near: point, text: text, limit: 8).map(\.hit)
                } else {
                    await request.geocoderHits(text: text, near: nil, limit: 8)
                }
            search = (text, hits)
        } else if let point {
            nearby = await request.suggestions(near: point, text: "", limit: 8).map(\.hit)
        }
        return try await render(
            request, form: form, search: search, nearby: nearby, searchPoint: point, categories: categories,
            shared: shared)
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(PlaceForm.self)
        return try await request.handleForm {
            let (draft, typeErrors) = form.draft()
            // A category shared with the person to edit takes the place into its owner's; a new category
            // (typed, so none chosen) is always the person's own.
            let places = try await request.placesReceiving(categoryID: draft.categoryID)
            let place = try await places.save(
                draft, placeID: nil, newCategory: form.newCategory, typeErrors: typeErrors)
            return .redirect(to: PlacePaths.place(place.id).path, flash: "“\(place.fields.name)” was saved.")
        } redraw: { errors in
            try await render(request, form: form, errors: errors)
        }
    }

    func edit(request: Request) async throws -> View {
        let (access, places) = try await request.placeAccess(try request.pathID(.placeID), needing: .editor)
        let place = try await places.place(try request.pathID(.placeID))
        return try await render(request, form: PlaceForm(place), editing: place, access: access)
    }

    func update(request: Request) async throws -> Response {
        let (access, places) = try await request.placeAccess(try request.pathID(.placeID), needing: .editor)
        let stored = try await places.place(try request.pathID(.placeID))
        var form = try request.content.decode(PlaceForm.self)
        // A member's place stays among its owner's categories: a new one would be the owner's.
        if !access.isOwner { form.newCategory = nil }
        return try await request.handleForm {
            var (draft, typeErrors) = form.draft()
            // Favorite is the page's own button; the form keeps what the place has.
            draft.isFavorite = stored.fields.isFavorite
            draft.source = stored.fields.source
            draft.externalID = stored.fields.externalID
            try await request.requireMove(of: access, to: draft.categoryID)
            let place = try await places.save(
                draft, placeID: stored.id, newCategory: form.newCategory, typeErrors: typeErrors)
            return .redirect(to: PlacePaths.place(place.id).path, flash: "“\(place.fields.name)” was saved.")
        } redraw: { errors in
            try await render(request, form: form, errors: errors, editing: stored, access: access)
        }
    }

    struct FavoriteForm: Content {
        var favorite: String?
    }

    func favorite(request: Request) async throws -> Response {
        let id = try request.pathID(.placeID)
        let wanted = try request.content.decode(FavoriteForm.self).favorite.flatMap(LooseValue.boolean) ?? true
        // A favorite is the owner's own mark.
        let place = try await request.placeAccess(id, needing: .owner).1.setFavorite(id, wanted)
        return request.redirect(
            to: PlacePaths.place(id).path,
            flash: wanted
                ? "“\(place.fields.name)” is one of your favorites."
                : "“\(place.fields.name)” is no longer a favorite.")
    }

    func confirmDelete(request: Request) async throws -> View {
        let (_, places) = try await request.placeAccess(try request.pathID(.placeID), needing: .editor)
        let place = try await places.place(try request.pathID(.placeID))
        return try await request.view.render(
            "places/delete", DeletePlacePage.Context(place: place, session: request.pageSession))
    }

    func delete(request: Request) async throws -> Response {
        let (_, places) = try await request.placeAccess(try request.pathID(.placeID), needing: .editor)
        let place = try await places.place(try request.pathID(.placeID))
        try await places.delete(place.id)
        return request.redirect(
            to: PlacePaths.category(place.categoryID).path, flash: "“\(place.fields.name)” was deleted.")
    }

    private func render(
        _ request: Request, form: PlaceForm, errors: FieldMessages = [:], editing: Place? = nil,
        search: (text: String, hits: [PlaceSearchHit])? = nil, nearby: [PlaceSearchHit] = [],
        searchPoint: Coordinate? = nil, categories read: [PlaceCategory]? = nil,
        shared readShared: [CategorySharing.SharedCategory]? = nil, access: PlaceAccess? = nil
    ) async throws -> View {
        var categories: [PlaceCategory] = []
        let shared: [CategorySharing.SharedCategory]
        if let access, !access.isOwner {
            // A member edits among the owner's categories they may edit.
            shared = try await request.categorySharing().editableSharedCategories().filter {
                $0.category.ownerID == access.ownerID
            }
        } else {
            if let read {
                categories = read
            } else {
                categories = try await request.places().categories().categories.map(\.0)
            }
            if let readShared {
                shared = readShared
            } else {
                shared = try await request.categorySharing().editableSharedCategories()
            }
        }
        // Shared categories after the person's own, each named with its owner.
        categories += shared.map(\.labelled)
        return try await request.view.render(
            "places/form",
            PlaceFormPage.Context(
                form: form, errors: errors, categories: categories, editing: editing, search: search, nearby: nearby,
                searchPoint: searchPoint, allowsNewCategory: access?.isOwner ?? true,
                tilesEnabled: request.mapTilesEnabled, session: request.pageSession))
    }
}
