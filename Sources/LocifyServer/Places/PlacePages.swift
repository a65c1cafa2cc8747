import Foundation
import LocifyCore
import Vapor

/// A place as a line of a list or a search result.
struct PlaceRow: Encodable {
    let name: String
    let url: String
    let categoryName: String
    let address: String?
    let distance: String?
    let isFavorite: Bool
    /// `★★★★☆` and "4 stars", when rated.
    let stars: String?
    let ratingWords: String?
    /// The cover picture's signed link, when the place has pictures.
    let coverURL: String?

    init(_ found: PlaceService.Found, categoryName: String, coverURL: String? = nil) {
        let place = found.place
        self.coverURL = coverURL
        name = place.fields.name
        url = PlacePaths.place(place.id).path
        self.categoryName = categoryName
        address = place.fields.address
        distance = found.distanceKilometers.map(DistanceText.kilometres)
        isFavorite = place.fields.isFavorite
        stars = place.fields.rating.map(PlaceRating.stars)
        ratingWords = place.fields.rating.map(PlaceRating.words)
    }
}

/// Distances as people read them: metres below one kilometre, one decimal below ten.
enum DistanceText {
    static func kilometres(_ value: Double) -> String {
        if value < 1 { return "\(Int((value * 1000 / 10).rounded()) * 10) m" }
        if value < 10 { return String(format: "%.1f km", value) }
        return "\(Int(value.rounded())) km"
    }
}

extension MapView.Marker {
    init(place: Place, categoryName: String?) {
        self.init(
            lat: place.fields.coordinate.latitude, lon: place.fields.coordinate.longitude, label: place.fields.name,
            detail: [categoryName, place.fields.address].compactMap { $0 }.joined(separator: " · "),
            url: PlacePaths.place(place.id).path, linkText: "Open \(place.fields.name)", layer: "places",
            approximately: place.fields.coordinatePrecision, around: place.fields.approximateArea)
    }
}

/// `GET /places`: the categories, Favorites first, each with its count; make, rename and delete them.
enum PlaceListPage {
    /// The list's own query: its text, sort, point and distance.
    struct Query {
        var text = ""
        var sort = "name"
        /// As typed: `lat,lon` or a place's name, which the geocoder finds.
        var near = ""
        var within = ""
        /// "" for any, else the fewest stars.
        var minimumRating = ""
        var page = 1

        init(_ request: Request) {
            let parameters = request.queryParameters
            text = parameters["q"] ?? ""
            sort =
                parameters["sort"].flatMap { ["name", "distance", "newest", "rating"].contains($0) ? $0 : nil }
                ?? "name"
            minimumRating =
                parameters["min_rating"].flatMap { PlaceDraft.ratings.map(String.init).contains($0) ? $0 : nil } ?? ""
            near = parameters["near"]?.trimmingCharacters(in: .whitespaces) ?? ""
            within = parameters["within_km"] ?? ""
            page = parameters["page"].flatMap { Int($0) }.map { max(1, min($0, 100_000)) } ?? 1
        }

        var items: [(String, String?)] {
            [
                ("q", text), ("sort", sort == "name" ? nil : sort),
                ("min_rating", minimumRating.isEmpty ? nil : minimumRating),
                ("near", near), ("within_km", within),
            ]
        }
    }

    static let pageSize = 50
    static let distances = ["", "1", "5", "10", "25", "50", "100"]

    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let listURL: String
        let places: [PlaceRow]
        let summary: String
        let searchField: FormField
        let sortField: FormField
        let ratingField: FormField
        let nearField: FormField
        let withinField: FormField
        let map: MapView
        let previousURL: String?
        let nextURL: String?
        /// Absent for a reader of a shared category.
        let newPlaceURL: String?
        let categoriesURL: String
        /// The owner's own: a shared category's members export nothing of it here.
        let exportURL: String?
        let sharingURL: String?
        /// The owner's name on a category shared with the person, and what the person may do.
        let sharedBy: String?
        let roleWords: String?
        let isFiltered: Bool
        /// What a place made offline holds to belong in this list (`category_id=5`): the offline app shows
        /// such a place at its top until it is sent.
        let offlineHolds: String?

        init(
            heading: String, list: some SiteAddress, query: Query, found: [PlaceService.Found], window: PageWindow,
            categoryNames: [Int: String], errors: FieldMessages, nearLabel: String?, newPlaceURL: String?,
            exportURL: String?, sharingURL: String? = nil, shared: CategorySharing.SharedCategory? = nil,
            tilesEnabled: Bool, session: PageSession, filter: PlaceFilter, coverURLs: [Int: String] = [:]
        ) {
            self.sharingURL = sharingURL
            sharedBy = shared?.ownerName
            roleWords = shared?.role.words
            offlineHolds =
                filter.categoryID.map { "category_id=\($0)" } ?? (filter.favorite == true ? "is_favorite=true" : nil)
            layout = LayoutContext(title: heading, section: .places, session: session)
            self.heading = heading
            listURL = list.path
            places = found.map {
                PlaceRow(
                    $0, categoryName: categoryNames[$0.place.categoryID] ?? "", coverURL: coverURLs[$0.place.id])
            }
            let count = window.total
            var summary = "\(count) place\(count == 1 ? "" : "s")"
            if let nearLabel {
                summary +=
                    query.within.isEmpty
                    ? ", nearest to \(nearLabel) first" : " within \(query.within) km of \(nearLabel)"
            }
            self.summary = summary + "."
            isFiltered = !query.text.isEmpty || !query.near.isEmpty || !query.minimumRating.isEmpty
            searchField = FormField("q", label: "Search", control: .text, value: query.text, errors: errors)
            sortField = FormField(
                "sort", label: "Sort by", control: .select, errors: errors,
                options: [
                    ("name", "Name"), ("distance", "Distance"), ("newest", "Newest first"),
                    ("rating", "Best rated first"),
                ]
                .map { SelectOption(value: $0.0, label: $0.1, isSelected: $0.0 == query.sort) })
            ratingField = FormField(
                "min_rating", label: "Rating", control: .select, errors: errors,
                options: [SelectOption(value: "", label: "Any rating", isSelected: query.minimumRating.isEmpty)]
                    + PlaceDraft.ratings.map { stars in
                        SelectOption(
                            value: String(stars), label: stars == 5 ? "5 stars" : "\(PlaceRating.words(stars)) or more",
                            isSelected: query.minimumRating == String(stars))
                    })
            nearField = FormField(
                "near", label: "Near", value: query.near, errors: errors,
                hint: "A town, an address or latitude,longitude; or use your location.")
            withinField = FormField(
                "within_km", label: "Within", control: .select, errors: errors,
                options: PlaceListPage.distances.map {
                    SelectOption(
                        value: $0, label: $0.isEmpty ? "Any distance" : "\($0) km", isSelected: $0 == query.within)
                })
            map = MapView(
                id: "places-map", label: "Map of \(heading)",
                markers: found.map {
                    MapView.Marker(place: $0.place, categoryName: categoryNames[$0.place.categoryID])
                },
                tilesEnabled: tilesEnabled)
            previousURL = window.previousPage.map { list.path(query: query.items + [("page", String($0))]) }
            nextURL = window.nextPage.map { list.path(query: query.items + [("page", String($0))]) }
            self.newPlaceURL = newPlaceURL
            categoriesURL = SitePaths.places.path
            self.exportURL = exportURL
        }
    }
}

/// `GET /places/{id}`: the place, on a map with the others of its category, to share and go to.
enum PlacePage {
    struct Context: Encodable {
        let layout: LayoutContext
        let id: Int
        let name: String
        let address: String?
        let coordinates: String
        let notes: String?
        let categoryName: String
        let categoryURL: String
        let isFavorite: Bool
        let stars: String?
        let ratingWords: String?
        let favoriteURL: String
        let editURL: String
        let deleteURL: String
        /// The favorite button's and the delete dialog's forms, kept on the device when the server cannot
        /// be reached.
        let favoriteOffline: OfflineForm
        let deleteOffline: OfflineForm
        let actions: MapActions
        let map: MapView
        let addedOn: String
        /// "around Lyon" when the geocoder placed the place only in its area.
        let around: String?
        let comments: PlaceCommentsSection
        let photos: PlacePhotosSection
        /// The owner's own buttons (favorite, the offline forms), and the editing ones of the owner and a
        /// shared list's editors.
        let isOwner: Bool
        let canEdit: Bool
        /// The owner's name, on a place of a category shared with the person, and what they may do.
        let sharedBy: String?
        let roleWords: String

        init(
            place: Place, categoryName: String, neighbours: [Place], comments: PlaceCommentsSection,
            photos: PlacePhotosSection, role: PlaceRole = .owner, sharedBy: String? = nil, preferredApp: MapsApp,
            tilesEnabled: Bool, session: PageSession
        ) {
            isOwner = role == .owner
            canEdit = role.canEditPlaces
            self.sharedBy = sharedBy
            roleWords = role.words
            self.comments = comments
            self.photos = photos
            let fields = place.fields
            layout = LayoutContext(title: fields.name, section: .places, session: session)
            id = place.id
            name = fields.name
            address = fields.address
            coordinates = fields.coordinate.displayText
            notes = fields.notes
            self.categoryName = categoryName
            categoryURL = PlacePaths.category(place.categoryID).path
            isFavorite = fields.isFavorite
            stars = fields.rating.map(PlaceRating.stars)
            ratingWords = fields.rating.map(PlaceRating.words)
            favoriteURL = PlacePaths.favorite(place.id).path
            editURL = PlacePaths.edit(place.id).path
            deleteURL = PlacePaths.delete(place.id).path
            favoriteOffline = OfflineForm(
                .update, of: .place, id: place.id, fixed: ["is_favorite": !fields.isFavorite],
                summary: fields.isFavorite ? "“\(fields.name)” no longer a favorite" : "“\(fields.name)” a favorite",
                then: PlacePaths.place(place.id).path)
            deleteOffline = OfflineForm(
                .delete, of: .place, id: place.id, summary: "Deleting “\(fields.name)”",
                then: PlacePaths.category(place.categoryID).path)
            around = fields.approximateArea
            actions = MapActions(
                fields.mapDestination, preferredApp: preferredApp,
                shareText: ShareText.place(
                    name: fields.name, address: fields.address, coordinate: fields.coordinate, notes: fields.notes,
                    isPrecise: fields.coordinatePrecision.isStreetLevel),
                id: "place", title: fields.name)
            // The place itself first: the map opens centred on it.
            var markers = [MapView.Marker(place: place, categoryName: categoryName)]
            markers[0].layer = "current"
            markers += neighbours.filter { $0.id != place.id }.map {
                MapView.Marker(place: $0, categoryName: categoryName)
            }
            map = MapView(
                id: "place-map", label: "Map of \(fields.name) and the other places in \(categoryName)",
                markers: markers, zoom: around == nil ? 15 : MapView.zoom(showing: fields.coordinatePrecision),
                tilesEnabled: tilesEnabled, behaviour: .init(centresOnFirst: true))
            addedOn = CalendarDate(place.createdAt, in: .gmt).description
        }
    }
}

extension PlacePage {
    /// The page of the signed-in person's place `id`; `problem` puts a refused comment form back as it was.
    static func load(_ request: Request, id: Int, problem: FormProblem? = nil) async throws -> Context {
        let (access, places) = try await request.placeAccess(id)
        let place = try await places.place(id)
        let commentService = try request.placeComments(of: access)
        let sharedBy =
            access.isOwner ? nil : try await request.categorySharing().sharedCategory(access.categoryID).ownerName
        // Each reads one thing about the place only: they run together.
        async let category = places.category(place.categoryID)
        async let neighbours = places.page(
            filter: PlaceFilter(categoryID: place.categoryID), sort: ListSort(.name),
            page: PageSelection(page: 1, limit: 500)
        ).0.map(\.place)
        async let comments = commentService.all(onPlace: place.id)
        async let photos = request.placePhotos(of: access).photos(ofPlace: place.id)
        let authors = try await commentService.authorNames(of: try await comments)
        return Context(
            place: place, categoryName: try await category.name, neighbours: try await neighbours,
            comments: PlaceCommentsSection(
                placeID: place.id, comments: try await comments, authors: authors,
                viewerID: commentService.authorID, problem: problem),
            photos: PlacePhotosSection(
                place: place, photos: try await photos,
                maximumBytes: request.application.locifyConfig.maximumPhotoBytes, problem: problem,
                canEdit: access.role.canEditPlaces, link: { request.storedFileLink($0.storedFilename) }),
            role: access.role, sharedBy: sharedBy, preferredApp: request.preferredMapsApp,
            tilesEnabled: request.mapTilesEnabled,
            session: request.pageSession)
    }
}

/// `GET /places/{id}/delete`: the confirmation for browsers without the dialog.
enum DeletePlacePage {
    struct Context: Encodable {
        let layout: LayoutContext
        let name: String
        let deleteURL: String
        let cancelURL: String

        init(place: Place, session: PageSession) {
            layout = LayoutContext(title: "Delete “\(place.fields.name)”?", section: .places, session: session)
            name = place.fields.name
            deleteURL = PlacePaths.delete(place.id).path
            cancelURL = PlacePaths.place(place.id).path
        }
    }
}

/// The add and edit form's fields as typed, so a refused form comes back as it was sent.
