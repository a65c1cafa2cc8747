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

    init(_ found: PlaceService.Found, categoryName: String) {
        let place = found.place
        name = place.fields.name
        url = SiteURL.place(place.id).path
        self.categoryName = categoryName
        address = place.fields.address
        distance = found.distanceKilometers.map(DistanceText.kilometres)
        isFavorite = place.fields.isFavorite
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
            url: SiteURL.place(place.id).path, linkText: "Open \(place.fields.name)", layer: "places")
    }
}

/// `GET /places`: the categories, Favorites first, each with its count; make, rename and delete them.
enum PlaceCategoriesPage {
    struct Row: Encodable {
        let id: Int
        let name: String
        let count: Int
        let url: String
        let renameURL: String
        let deleteURL: String
        /// The inline rename field, with its problem when a rename was refused.
        let field: FormField
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let favoritesCount: Int
        let favoritesURL: String
        let categories: [Row]
        let placesCount: Int
        let newCategory: FormField
        let createURL: String
        let newPlaceURL: String
        let importExportURL: String

        init(
            categories: [(PlaceCategory, Int)], favorites: Int, errors: FieldMessages = [:], typedName: String? = nil,
            renaming: (id: Int, name: String, errors: FieldMessages)? = nil, session: PageSession
        ) {
            layout = LayoutContext(title: "Places", section: .places, session: session)
            favoritesCount = favorites
            favoritesURL = SiteURL.placesFavorites.path
            self.categories = categories.map { category, count in
                let isRenamed = renaming?.id == category.id
                return Row(
                    id: category.id, name: category.name, count: count, url: SiteURL.placeCategory(category.id).path,
                    renameURL: SiteURL.renamePlaceCategory(category.id).path,
                    deleteURL: SiteURL.deletePlaceCategory(category.id).path,
                    field: FormField(
                        "name", label: "New name for \(category.name)",
                        value: isRenamed ? renaming?.name : category.name,
                        errors: isRenamed ? renaming?.errors ?? [:] : [:],
                        maxLength: PlaceCategory.maximumNameLength
                    ).identified(as: "category-\(category.id)-name"))
            }
            placesCount = categories.reduce(0) { $0 + $1.1 }
            newCategory = FormField(
                "name", label: "New category", value: typedName, errors: errors, isRequired: true,
                maxLength: PlaceCategory.maximumNameLength)
            createURL = SiteURL.placeCategories.path
            newPlaceURL = SiteURL.newPlace.path
            importExportURL = SiteURL.settingsPlaces.path
        }
    }
}

/// `GET /places/categories/{id}/delete`: where the category's places go, then the deletion.
enum DeletePlaceCategoryPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let name: String
        let count: Int
        let deleteURL: String
        let cancelURL: String
        let target: FormField?
        let isLast: Bool

        init(
            category: PlaceCategory, count: Int, others: [PlaceCategory], errors: FieldMessages = [:],
            session: PageSession
        ) {
            layout = LayoutContext(title: "Delete “\(category.name)”?", section: .places, session: session)
            name = category.name
            self.count = count
            deleteURL = SiteURL.deletePlaceCategory(category.id).path
            cancelURL = SiteURL.places.path
            isLast = others.isEmpty
            target =
                count == 0 || others.isEmpty
                ? nil
                : FormField(
                    "move_to", label: "Move its \(count) place\(count == 1 ? "" : "s") to", control: .select,
                    errors: errors, isRequired: true,
                    options: SelectOption.categories(others, chosen: nil, none: "Choose a category"))
        }
    }
}

/// `GET /places/categories/{id}` and `GET /places/favorites`: the places, searched, sorted, near a
/// point, and on a map.
enum PlaceListPage {
    /// The list's own query: its text, sort, point and distance.
    struct Query {
        var text = ""
        var sort = "name"
        /// As typed: `lat,lon` or a place's name, which the geocoder finds.
        var near = ""
        var within = ""
        var page = 1

        init(_ request: Request) {
            let parameters = request.queryParameters
            text = parameters["q"] ?? ""
            sort = parameters["sort"].flatMap { ["name", "distance", "newest"].contains($0) ? $0 : nil } ?? "name"
            near = parameters["near"]?.trimmingCharacters(in: .whitespaces) ?? ""
            within = parameters["within_km"] ?? ""
            page = parameters["page"].flatMap { Int($0) }.map { max(1, min($0, 100_000)) } ?? 1
        }

        var items: [(String, String?)] {
            [("q", text), ("sort", sort == "name" ? nil : sort), ("near", near), ("within_km", within)]
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
        let nearField: FormField
        let withinField: FormField
        let map: MapView
        let previousURL: String?
        let nextURL: String?
        let newPlaceURL: String
        let categoriesURL: String
        let exportURL: String
        let isFiltered: Bool

        init(
            heading: String, list: SiteURL, query: Query, found: [PlaceService.Found], window: PageWindow,
            categoryNames: [Int: String], errors: FieldMessages, nearLabel: String?, newPlaceURL: String,
            exportURL: String, tilesEnabled: Bool, session: PageSession
        ) {
            layout = LayoutContext(title: heading, section: .places, session: session)
            self.heading = heading
            listURL = list.path
            places = found.map { PlaceRow($0, categoryName: categoryNames[$0.place.categoryID] ?? "") }
            let count = window.total
            var summary = "\(count) place\(count == 1 ? "" : "s")"
            if let nearLabel {
                summary +=
                    query.within.isEmpty
                    ? ", nearest to \(nearLabel) first" : " within \(query.within) km of \(nearLabel)"
            }
            self.summary = summary + "."
            isFiltered = !query.text.isEmpty || !query.near.isEmpty
            searchField = FormField("q", label: "Search", control: .text, value: query.text, errors: errors)
            sortField = FormField(
                "sort", label: "Sort by", control: .select, errors: errors,
                options: [("name", "Name"), ("distance", "Distance"), ("newest", "Newest first")].map {
                    SelectOption(value: $0.0, label: $0.1, isSelected: $0.0 == query.sort)
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
            categoriesURL = SiteURL.places.path
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
        let favoriteURL: String
        let editURL: String
        let deleteURL: String
        let actions: MapActions
        let map: MapView
        let addedOn: String

        init(
            place: Place, categoryName: String, neighbours: [Place], preferredApp: MapsApp, tilesEnabled: Bool,
            session: PageSession
        ) {
            let fields = place.fields
            layout = LayoutContext(title: fields.name, section: .places, session: session)
            id = place.id
            name = fields.name
            address = fields.address
            coordinates = fields.coordinate.displayText
            notes = fields.notes
            self.categoryName = categoryName
            categoryURL = SiteURL.placeCategory(place.categoryID).path
            isFavorite = fields.isFavorite
            favoriteURL = SiteURL.placeFavorite(place.id).path
            editURL = SiteURL.editPlace(place.id).path
            deleteURL = SiteURL.deletePlace(place.id).path
            actions = MapActions(
                .coordinate(fields.coordinate, label: fields.name), preferredApp: preferredApp,
                shareText: ShareText.place(
                    name: fields.name, address: fields.address, coordinate: fields.coordinate, notes: fields.notes),
                id: "place", title: fields.name)
            // The place itself first: the map opens centred on it.
            var markers = [MapView.Marker(place: place, categoryName: categoryName)]
            markers[0].layer = "current"
            markers += neighbours.filter { $0.id != place.id }.map {
                MapView.Marker(place: $0, categoryName: categoryName)
            }
            map = MapView(
                id: "place-map", label: "Map of \(fields.name) and the other places in \(categoryName)",
                markers: markers, zoom: 15, tilesEnabled: tilesEnabled, behaviour: .init(centresOnFirst: true))
            addedOn = CalendarDate(place.createdAt, in: .gmt).description
        }
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
            deleteURL = SiteURL.deletePlace(place.id).path
            cancelURL = SiteURL.place(place.id).path
        }
    }
}

/// The add and edit form's fields as typed, so a refused form comes back as it was sent.
struct PlaceForm: Content {
    var name: String?
    var address: String?
    var categoryID: String?
    var newCategory: String?
    var notes: String?
    var latitude: String?
    var longitude: String?

    enum CodingKeys: String, CodingKey {
        case name, address
        case categoryID = "category_id"
        case newCategory = "new_category"
        case notes, latitude, longitude
    }

    init(
        name: String? = nil, address: String? = nil, categoryID: String? = nil, notes: String? = nil,
        latitude: String? = nil, longitude: String? = nil
    ) {
        self.name = name
        self.address = address
        self.categoryID = categoryID
        self.notes = notes
        self.latitude = latitude
        self.longitude = longitude
    }

    init(_ place: Place) {
        let fields = place.fields
        self.init(
            name: fields.name, address: fields.address, categoryID: String(place.categoryID), notes: fields.notes,
            latitude: MapLinks.number(fields.coordinate.latitude),
            longitude: MapLinks.number(fields.coordinate.longitude))
    }

    /// The draft, and the problems of values that are not even numbers. Being a favorite is the place
    /// page's own button: the form leaves it to the caller.
    func draft() -> (PlaceDraft, typeErrors: [FieldError]) {
        var problems: [FieldError] = []
        func number(_ text: String?, field: String, label: String) -> Double? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = LooseValue.number(text.replacingOccurrences(of: ",", with: ".")) else {
                problems.append(FieldError(field: field, message: "\(label) must be a number, like 48.8584."))
                return nil
            }
            return value
        }
        let latitude = number(latitude, field: "latitude", label: "Latitude")
        let longitude = number(longitude, field: "longitude", label: "Longitude")
        let wantsNewCategory = !(newCategory?.trimmingCharacters(in: .whitespaces).isEmpty ?? true)
        let category = LooseValue.integer(
            categoryID, field: "category_id", label: "Category", problems: &problems)
        let draft = PlaceDraft(
            name: name, address: address, latitude: latitude, longitude: longitude, notes: notes,
            categoryID: wantsNewCategory ? nil : category)
        return (draft, problems)
    }

    /// The position typed, read as `draft()` reads it, when it is one.
    var coordinate: Coordinate? {
        let (draft, _) = draft()
        return Coordinate(validLatitude: draft.latitude, longitude: draft.longitude)
    }
}

/// `GET /places/new` and `GET /places/{id}/edit`: the place form, with a search for the new place (the
/// geocoder's answers), a map to drop or drag the pin, and a static preview of the chosen point.
enum PlaceFormPage {
    struct SearchResult: Encodable {
        let name: String
        let detail: String
        let useURL: String
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let actionURL: String
        let isNew: Bool
        let searchURL: String
        let searchText: String
        let results: [SearchResult]
        let searched: Bool
        let fields: [FormField]
        let categoryField: FormField
        let newCategoryField: FormField
        let notesField: FormField
        let latitudeField: FormField
        let longitudeField: FormField
        let map: MapView
        let previewURL: String?
        let submitLabel: String
        let cancelURL: String

        init(
            form: PlaceForm, errors: FieldMessages, categories: [PlaceCategory], editing: Place?,
            search: (text: String, hits: [PlaceSearchHit])?, tilesEnabled: Bool, session: PageSession
        ) {
            let title = editing.map { "Edit “\($0.fields.name)”" } ?? "Add a place"
            layout = LayoutContext(title: title, section: .places, session: session)
            heading = title
            actionURL = editing.map { SiteURL.editPlace($0.id).path } ?? SiteURL.places.path
            isNew = editing == nil
            searchURL = SiteURL.newPlace.path
            searchText = search?.text ?? ""
            searched = search != nil
            results = (search?.hits ?? []).map { hit in
                SearchResult(name: hit.name, detail: MapLinks.text(hit.coordinate), useURL: NewPlaceLink.path(for: hit))
            }
            fields = [
                FormField(
                    "name", label: "Name", value: form.name, errors: errors, isRequired: true,
                    maxLength: PlaceDraft.maximumNameLength),
                FormField("address", label: "Address", value: form.address, errors: errors, hint: "Optional."),
            ]
            let chosen = form.categoryID
            categoryField = FormField(
                "category_id", label: "Category", control: .select, errors: errors, isRequired: true,
                options: SelectOption.categories(categories, chosen: chosen, none: "Choose a category"))
            newCategoryField = FormField(
                "new_category", label: "Or a new category", value: form.newCategory, errors: errors,
                hint: "Made with the place; leave empty to use the category chosen above.",
                maxLength: PlaceCategory.maximumNameLength)
            notesField = FormField("notes", label: "Notes", control: .textarea, value: form.notes, errors: errors)
            latitudeField = FormField(
                "latitude", label: "Latitude", value: form.latitude, errors: errors, isRequired: true,
                inputMode: "decimal")
            longitudeField = FormField(
                "longitude", label: "Longitude", value: form.longitude, errors: errors, isRequired: true,
                inputMode: "decimal")
            let point = form.coordinate
            map = .pinPicker(id: "place-pick-map", at: point, tilesEnabled: tilesEnabled)
            previewURL = point.map { StaticMapLink.path($0, zoom: 15) }
            submitLabel = editing == nil ? "Save place" : "Save changes"
            cancelURL = editing.map { SiteURL.place($0.id).path } ?? SiteURL.places.path
        }
    }
}

/// `GET /map/point?lat=&lon=`: a point tapped on the map, with what is there, to save, share or go to.
enum MapPointPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let name: String
        let address: String?
        let coordinates: String
        let actions: MapActions
        let saveURL: String
        let staticMapURL: String
        let mapURL: String

        init(coordinate: Coordinate, found: GeocodingResult?, preferredApp: MapsApp, session: PageSession) {
            let name = found.map { NewPlaceLink.shortName(of: $0.displayName) } ?? "Dropped pin"
            layout = LayoutContext(title: name, section: .map, session: session)
            self.name = name
            address = found?.displayName
            coordinates = coordinate.displayText
            actions = MapActions(
                .coordinate(coordinate, label: name), preferredApp: preferredApp,
                shareText: ShareText.place(name: name, address: found?.displayName, coordinate: coordinate),
                id: "point", title: name)
            saveURL = NewPlaceLink.path(name: found == nil ? nil : name, address: found?.displayName, at: coordinate)
            staticMapURL = StaticMapLink.path(coordinate, zoom: 15)
            mapURL = SiteURL.map.path
        }
    }
}

extension SelectOption {
    /// The person's categories as a select's options, after a first one with no value (`none`).
    static func categories(_ categories: [PlaceCategory], chosen: String?, none: String) -> [SelectOption] {
        let chosen = chosen ?? ""
        return [SelectOption(value: "", label: none, isSelected: chosen.isEmpty)]
            + categories.map { SelectOption(value: String($0.id), label: $0.name, isSelected: String($0.id) == chosen) }
    }
}
