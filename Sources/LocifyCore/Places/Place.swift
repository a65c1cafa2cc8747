import Foundation

/// A place someone saved: a point with a name, in one of their categories.
public struct Place: Hashable, Sendable {
    public var id: Int
    public var uuid: UUID
    public var ownerID: Int
    public var categoryID: Int
    public var fields: PlaceFields
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, categoryID: Int, fields: PlaceFields, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.categoryID = categoryID
        self.fields = fields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The fields a person edits, already validated and trimmed.
public struct PlaceFields: Hashable, Sendable {
    public var name: String
    public var address: String?
    public var coordinate: Coordinate
    public var notes: String?
    public var isFavorite: Bool
    /// The owner's stars, 1 to 5; nil for none given.
    public var rating: Int?
    /// Where an imported place came from ("gpx", "takeout"…), and its id there, for merging repeats.
    public var source: String?
    public var externalID: String?
    /// `manual` unless the geocoder placed it by its address (an imported record without a position).
    public var coordinatePrecision: CoordinatePrecision

    public init(
        name: String, address: String? = nil, coordinate: Coordinate, notes: String? = nil, isFavorite: Bool = false,
        rating: Int? = nil, source: String? = nil, externalID: String? = nil,
        coordinatePrecision: CoordinatePrecision = .manual
    ) {
        self.name = name
        self.rating = rating
        self.address = address
        self.coordinate = coordinate
        self.notes = notes
        self.isFavorite = isFavorite
        self.source = source
        self.externalID = externalID
        self.coordinatePrecision = coordinatePrecision
    }

    /// Where maps apps are sent: the position, unless the geocoder found only the area of the address, which
    /// then goes as text (each app finds the street itself).
    public var mapDestination: MapDestination {
        if !coordinatePrecision.isStreetLevel, let address, !address.isEmpty { return .address(address) }
        return .coordinate(coordinate, label: name)
    }

    /// "around Lyon" for a place the geocoder could put only in its area, taken from its address's first part
    /// the geocoder's precision names; nil for a position at the street or better.
    public var approximateArea: String? {
        guard !coordinatePrecision.isStreetLevel else { return nil }
        let parts = (address ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // An address written "street, city, country": the city is the second part from the end when the
        // country closes it, else the last.
        let part = coordinatePrecision == .country ? parts.last : parts.dropLast().last ?? parts.last
        // "69001 Lyon" is said "Lyon": postal codes and house numbers are for envelopes.
        let words = (part ?? "").split(separator: " ").filter { !$0.contains(where: \.isNumber) }
        return "around \(words.isEmpty ? name : words.joined(separator: " "))"
    }

    /// What `q` searches: name, notes and address, folded (see `TextFolding.searchKey`).
    public var searchKey: String { TextFolding.searchKey([name, notes, address]) }
}

/// A place as typed: every value optional and unchecked.
public struct PlaceDraft: Sendable, Equatable {
    public var name: String?
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?
    public var notes: String?
    public var categoryID: Int?
    public var isFavorite: Bool?
    /// 1 to 5 stars; nil for none.
    public var rating: Int?
    public var source: String?
    public var externalID: String?
    /// How exact the latitude and longitude are; nil for a person's (`manual`).
    public var coordinatePrecision: CoordinatePrecision?

    public static let maximumNameLength = 200
    public static let maximumNotesLength = 10_000
    public static let ratings = 1...5
    public static let ratingProblem = "Rating must be from 1 to 5 stars, or none."

    public static let fieldLabels: [String: String] = [
        "name": "Name", "address": "Address", "latitude": "Latitude", "longitude": "Longitude", "notes": "Notes",
        "category_id": "Category", "is_favorite": "Favorite", "rating": "Rating", "source": "Source",
        "external_id": "External id",
    ]

    public init(
        name: String? = nil, address: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        notes: String? = nil, categoryID: Int? = nil, isFavorite: Bool? = nil, rating: Int? = nil,
        source: String? = nil, externalID: String? = nil
    ) {
        self.rating = rating
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.notes = notes
        self.categoryID = categoryID
        self.isFavorite = isFavorite
        self.source = source
        self.externalID = externalID
    }

    /// The stored place as a draft, for updates that change some fields.
    public init(_ place: Place) {
        let fields = place.fields
        self.init(
            name: fields.name, address: fields.address, latitude: fields.coordinate.latitude,
            longitude: fields.coordinate.longitude, notes: fields.notes, categoryID: place.categoryID,
            isFavorite: fields.isFavorite, rating: fields.rating, source: fields.source, externalID: fields.externalID)
        coordinatePrecision = fields.coordinatePrecision == .manual ? nil : fields.coordinatePrecision
    }

    /// The fields and the category, or every problem at once (with `typeErrors`, values that could not
    /// even be read).
    public func validated(typeErrors: [FieldError] = []) throws(ValidationFailure) -> (PlaceFields, categoryID: Int) {
        var check = FieldChecker()
        for error in typeErrors { check.fail(error.field, error.message) }
        let failed = Set(typeErrors.map(\.field))
        let name = check.text(name, field: "name", label: "Name", limit: Self.maximumNameLength)
        if name == nil, !failed.contains("name") { check.fail("name", "Name is required.") }
        let address = check.text(address, field: "address", label: "Address", limit: 500)
        let notes = check.text(notes, field: "notes", label: "Notes", limit: Self.maximumNotesLength)
        let source = check.text(source, field: "source", label: "Source", limit: 50)
        let externalID = check.text(externalID, field: "external_id", label: "External id", limit: 2_000)
        if let latitude, !Coordinate.isLatitude(latitude) {
            check.fail("latitude", Coordinate.latitudeProblem)
        } else if latitude == nil, !failed.contains("latitude") {
            check.fail("latitude", "Latitude is required.")
        }
        if let longitude, !Coordinate.isLongitude(longitude) {
            check.fail("longitude", Coordinate.longitudeProblem)
        } else if longitude == nil, !failed.contains("longitude") {
            check.fail("longitude", "Longitude is required.")
        }
        if let rating, !Self.ratings.contains(rating) {
            check.fail("rating", Self.ratingProblem)
        }
        if categoryID == nil, !failed.contains("category_id") {
            check.fail("category_id", "Choose the category this place belongs to.")
        }
        guard let name, let latitude, let longitude, let categoryID, check.errors.isEmpty else {
            throw ValidationFailure(check.errors)
        }
        let fields = PlaceFields(
            name: name, address: address, coordinate: Coordinate(latitude: latitude, longitude: longitude),
            notes: notes, isFavorite: isFavorite ?? false, rating: rating, source: source, externalID: externalID,
            coordinatePrecision: coordinatePrecision ?? .manual)
        return (fields, categoryID)
    }
}

/// A person's category of places ("Restaurant"). Names are unique per person, ignoring case.
public struct PlaceCategory: Hashable, Sendable {
    public var id: Int
    public var ownerID: Int
    public var name: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int, ownerID: Int, name: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.ownerID = ownerID
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// What a new person starts with.
    public static let defaults = ["Restaurant", "Cafe", "Tourist Attraction", "Other"]

    /// The default category each kind of place a map names goes to (OpenStreetMap's types).
    static let defaultsByKind: [String: String] = [
        "cafe": "Cafe", "coffee_shop": "Cafe", "tea": "Cafe", "ice_cream": "Cafe",
        "restaurant": "Restaurant", "fast_food": "Restaurant", "food_court": "Restaurant", "pub": "Restaurant",
        "bar": "Restaurant", "biergarten": "Restaurant",
        "attraction": "Tourist Attraction", "museum": "Tourist Attraction", "viewpoint": "Tourist Attraction",
        "artwork": "Tourist Attraction", "monument": "Tourist Attraction", "memorial": "Tourist Attraction",
        "castle": "Tourist Attraction", "gallery": "Tourist Attraction", "zoo": "Tourist Attraction",
        "theme_park": "Tourist Attraction", "aquarium": "Tourist Attraction", "ruins": "Tourist Attraction",
    ]

    /// The category a place of `kind` (a map's "cafe", "museum") belongs in: one of `categories` named like
    /// the kind ("Bakery" for a bakery, "Bakeries" too), else the default category for that kind when the
    /// person still has it; nil when the kind says nothing.
    public static func suggested(forKind kind: String, among categories: [PlaceCategory]) -> PlaceCategory? {
        let words = kind.replacingOccurrences(of: "_", with: " ").lowercased()
        guard !words.isEmpty else { return nil }
        let named = categories.first { category in
            let name = category.name.lowercased()
            return name == words || name == words + "s" || (words.hasSuffix("y") && name == words.dropLast() + "ies")
        }
        if let named { return named }
        guard let fallback = defaultsByKind[kind.lowercased()] else { return nil }
        return categories.first { $0.name.lowercased() == fallback.lowercased() }
    }
    public static let maximumNameLength = 100

    /// The name as compared for uniqueness: "cafe", "Cafe" and "CAFE" are one category.
    public static func uniquenessKey(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// A checked name: present, at most 100 characters, and not the name of another of `existing`.
    public static func validatedName(_ text: String?, existing: [String]) throws(ValidationFailure) -> String {
        var check = FieldChecker()
        let name = check.text(text, field: "name", label: "Name", limit: maximumNameLength)
        guard let name else {
            check.fail("name", "Name is required.")
            throw ValidationFailure(check.errors)
        }
        let key = uniquenessKey(name)
        if existing.contains(where: { uniquenessKey($0) == key }) {
            check.fail("name", "You already have a category named “\(name)”.", reason: .conflict)
        }
        return try check.finish(name)
    }
}
