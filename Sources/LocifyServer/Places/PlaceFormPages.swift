import Foundation
import LocifyCore
import Vapor

struct PlaceForm: Content {
    var name: String?
    var address: String?
    var categoryID: String?
    var newCategory: String?
    var notes: String?
    /// "" for none, else 1 to 5.
    var rating: String?
    var latitude: String?
    var longitude: String?
    /// What the map called the point ("cafe"), when its category was chosen from it: the form says so.
    var suggestedKind: String?

    enum CodingKeys: String, CodingKey {
        case name, address
        case categoryID = "category_id"
        case newCategory = "new_category"
        case notes, rating, latitude, longitude
    }

    init(
        name: String? = nil, address: String? = nil, categoryID: String? = nil, notes: String? = nil,
        rating: String? = nil, latitude: String? = nil, longitude: String? = nil
    ) {
        self.name = name
        self.rating = rating
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
            rating: fields.rating.map(String.init) ?? "", latitude: MapLinks.number(fields.coordinate.latitude),
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
        var stars: Int?
        if let text = rating?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            stars = LooseValue.integer(text)
            if stars == nil {
                problems.append(FieldError(field: "rating", message: PlaceDraft.ratingProblem))
            }
        }
        let draft = PlaceDraft(
            name: name, address: address, latitude: latitude, longitude: longitude, notes: notes,
            categoryID: wantsNewCategory ? nil : category, rating: stars)
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
        let searchField: FormField
        let results: [SearchResult]
        let searched: Bool
        let fields: [FormField]
        let categoryField: FormField
        /// Absent when a member edits a shared place: their categories are not its owner's.
        let newCategoryField: FormField?
        let notesField: FormField
        let ratingField: FormField
        let latitudeField: FormField
        let longitudeField: FormField
        let map: MapView
        let previewURL: String?
        let submitLabel: String
        let cancelURL: String
        let offline: OfflineForm

        /// Named places around the point the form was opened at (a pin dropped on the map), to choose from.
        let nearby: [SearchResult]
        /// The point, kept by the search form so that a search looks around it.
        let searchPoint: [FormField]

        init(
            form: PlaceForm, errors: FieldMessages, categories: [PlaceCategory], editing: Place?,
            search: (text: String, hits: [PlaceSearchHit])?, nearby: [PlaceSearchHit] = [],
            searchPoint: Coordinate? = nil, allowsNewCategory: Bool = true,
            tilesEnabled: Bool, session: PageSession
        ) {
            self.nearby = nearby.map { hit in
                SearchResult(name: hit.name, detail: MapLinks.text(hit.coordinate), useURL: NewPlaceLink.path(for: hit))
            }
            self.searchPoint =
                searchPoint.map {
                    [
                        .hidden("lat", value: MapLinks.number($0.latitude)),
                        .hidden("lon", value: MapLinks.number($0.longitude)),
                    ]
                } ?? []
            let title = editing.map { "Edit “\($0.fields.name)”" } ?? "Add a place"
            layout = LayoutContext(title: title, section: .places, session: session)
            heading = title
            actionURL = editing.map { PlacePaths.edit($0.id).path } ?? SitePaths.places.path
            isNew = editing == nil
            searchURL = PlacePaths.new.path
            searchText = search?.text ?? ""
            searchField = FormField(
                "q", label: "Find it on the map", control: .search, value: search?.text,
                hint: "A town, a landmark or an address; or tap the map below to drop a pin."
            ).identified(as: "place-q")
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
                "category_id", label: "Category", control: .select, errors: errors,
                hint: form.suggestedKind.map { "Suggested: the map calls it a \($0)." }, isRequired: true,
                options: SelectOption.categories(categories, chosen: chosen, none: "Choose a category"))
            newCategoryField =
                allowsNewCategory
                ? FormField(
                    "new_category", label: "Or a new category", value: form.newCategory, errors: errors,
                    hint: "Made with the place; leave empty to use the category chosen above.",
                    maxLength: PlaceCategory.maximumNameLength) : nil
            notesField = FormField("notes", label: "Notes", control: .textarea, value: form.notes, errors: errors)
            ratingField = FormField(
                "rating", label: "Rating", control: .select, errors: errors,
                options: [SelectOption(value: "", label: "No rating", isSelected: (form.rating ?? "").isEmpty)]
                    + PlaceDraft.ratings.map { stars in
                        SelectOption(
                            value: String(stars), label: PlaceRating.words(stars),
                            isSelected: form.rating == String(stars))
                    })
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
            cancelURL = editing.map { PlacePaths.place($0.id).path } ?? SitePaths.places.path
            // "Or a new category" is no push field: offline it becomes a category of its own, made first.
            let newCategory = OfflineForm.Companion(
                control: "new_category", type: SyncedType.category.name, field: "name", reference: "category_uuid")
            offline =
                editing.map {
                    OfflineForm(
                        .update, of: .place, id: $0.id, summary: title, then: PlacePaths.place($0.id).path,
                        companion: newCategory)
                }
                ?? OfflineForm(
                    .create, of: .place, summary: "New place", then: SitePaths.places.path, companion: newCategory)
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
            mapURL = SitePaths.map.path
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
