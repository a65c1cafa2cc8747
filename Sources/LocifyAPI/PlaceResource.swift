import Foundation
import LocifyCore

/// A category in a list: `{id, object, name, places_count, created_at, updated_at}`.
public struct PlaceCategoryResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "category"
    public var name: String
    public var placesCount: Int
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, name
        case placesCount = "places_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ category: PlaceCategory, placesCount: Int) {
        id = category.id
        name = category.name
        self.placesCount = placesCount
        createdAt = Timestamp.string(category.createdAt)
        updatedAt = Timestamp.string(category.updatedAt)
    }
}

/// `GET /api/categories`: every category, and how many places are favorites (a view, not a category).
public struct PlaceCategoryListResource: Codable, Sendable, Equatable {
    public var data: [PlaceCategoryResource]
    public var favoritesCount: Int

    enum CodingKeys: String, CodingKey {
        case data
        case favoritesCount = "favorites_count"
    }

    public init(data: [PlaceCategoryResource], favoritesCount: Int) {
        self.data = data
        self.favoritesCount = favoritesCount
    }
}

/// A place: its fields, its category, links to open it in each maps app, a text to share it, and its
/// distance when the list was asked `near` a point.
public struct PlaceResource: Codable, Sendable, Equatable {
    public struct CategoryReference: Codable, Sendable, Equatable {
        public var id: Int
        public var name: String

        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    public var id: Int
    public var uuid: String
    public var object = "place"
    public var name: String
    @Nullable public var address: String?
    public var latitude: Double
    public var longitude: Double
    @Nullable public var notes: String?
    public var categoryID: Int
    public var category: CategoryReference
    public var isFavorite: Bool
    /// 1 to 5 stars, or null.
    @Nullable public var rating: Int?
    @Nullable public var source: String?
    @Nullable public var externalID: String?
    /// `CoordinatePrecision`: `manual` unless the geocoder placed it by its address.
    public var precision: String
    public var mapLinks: MapLinksResource
    public var shareText: String
    @Nullable public var distanceKm: Double?
    public var url: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, address, latitude, longitude, notes
        case categoryID = "category_id"
        case category
        case isFavorite = "is_favorite"
        case rating
        case source
        case externalID = "external_id"
        case precision
        case mapLinks = "map_links"
        case shareText = "share_text"
        case distanceKm = "distance_km"
        case url, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `distanceKm` is given for lists asked `near` a point, rounded to metres.
    public init(_ place: Place, categoryName: String, url: String, distanceKm: Double? = nil) {
        let fields = place.fields
        id = place.id
        uuid = place.uuid.uuidString.lowercased()
        name = fields.name
        address = fields.address
        latitude = fields.coordinate.latitude
        longitude = fields.coordinate.longitude
        notes = fields.notes
        categoryID = place.categoryID
        category = CategoryReference(id: place.categoryID, name: categoryName)
        isFavorite = fields.isFavorite
        rating = fields.rating
        source = fields.source
        externalID = fields.externalID
        precision = fields.coordinatePrecision.rawValue
        mapLinks = MapLinksResource(destination: fields.mapDestination)
        shareText = ShareText.place(
            name: fields.name, address: fields.address, coordinate: fields.coordinate, notes: fields.notes,
            isPrecise: fields.coordinatePrecision.isStreetLevel)
        self.distanceKm = distanceKm.map { ($0 * 1000).rounded() / 1000 }
        self.url = url
        account = AccountReference(id: place.ownerID)
        createdAt = Timestamp.string(place.createdAt)
        updatedAt = Timestamp.string(place.updatedAt)
    }
}

/// The body of the place routes, read loosely like the contact's (numbers in strings, booleans as 1/"yes").
public struct PlaceInput: Decodable, Sendable {
    public private(set) var draft = PlaceDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(draft: PlaceDraft, presentKeys: Set<String>) {
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: PlaceDraft.fieldLabels)
        draft.name = reader.string("name")
        draft.address = reader.string("address")
        draft.latitude = reader.number("latitude")
        draft.longitude = reader.number("longitude")
        draft.notes = reader.string("notes")
        draft.categoryID = reader.integer("category_id")
        draft.isFavorite = reader.boolean("is_favorite")
        draft.rating = reader.integer("rating")
        draft.source = reader.string("source")
        draft.externalID = reader.string("external_id")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: PlaceDraft) -> PlaceDraft {
        var result = existing
        func take<Value>(_ key: String, _ path: WritableKeyPath<PlaceDraft, Value>) {
            if presentKeys.contains(key) { result[keyPath: path] = draft[keyPath: path] }
        }
        take("name", \.name)
        take("address", \.address)
        take("latitude", \.latitude)
        take("longitude", \.longitude)
        take("notes", \.notes)
        take("category_id", \.categoryID)
        take("is_favorite", \.isFavorite)
        take("rating", \.rating)
        take("source", \.source)
        take("external_id", \.externalID)
        return result
    }
}

/// The body of the category routes: `name`.
public struct PlaceCategoryInput: Decodable, Sendable {
    public private(set) var name: String?
    public private(set) var typeErrors: [FieldError] = []

    public init(name: String?) {
        self.name = name
    }

    public init(from decoder: any Decoder) throws {
        var reader = LenientReader(container: try decoder.container(keyedBy: LenientKey.self), labels: ["name": "Name"])
        name = reader.string("name")
        typeErrors = reader.errors
    }
}

/// One answer of `GET /api/search`: `{type, name, detail, latitude, longitude, distance_km, place_id,
/// contact_id, address_id, precision, source}`, the ids of what it is where it is something of the person's.
public struct PlaceSearchResultResource: Codable, Sendable, Equatable {
    public var type: String
    public var name: String
    @Nullable public var detail: String?
    public var latitude: Double
    public var longitude: Double
    @Nullable public var distanceKm: Double?
    @Nullable public var placeID: Int?
    @Nullable public var contactID: Int?
    @Nullable public var addressID: Int?
    @Nullable public var precision: String?
    @Nullable public var source: String?
    /// What the geocoder says the place is ("cafe"), and the person's category a new place of that kind
    /// goes to (`PlaceCategory.suggested(forKind:among:)`).
    @Nullable public var placeKind: String?
    @Nullable public var suggestedCategoryID: Int?

    enum CodingKeys: String, CodingKey {
        case type, name, detail, latitude, longitude
        case distanceKm = "distance_km"
        case placeID = "place_id"
        case contactID = "contact_id"
        case addressID = "address_id"
        case precision, source
        case placeKind = "place_kind"
        case suggestedCategoryID = "suggested_category_id"
    }

    public init(_ hit: PlaceSearchHit, meters: Double?, suggestedCategoryID: Int? = nil) {
        placeKind = hit.placeKind
        self.suggestedCategoryID = suggestedCategoryID
        type = hit.kind.rawValue
        name = hit.name
        detail = hit.detail
        latitude = hit.coordinate.latitude
        longitude = hit.coordinate.longitude
        distanceKm = meters.map { ($0).rounded() / 1000 }
        placeID = hit.placeID
        contactID = hit.contactID
        addressID = hit.addressID
        precision = hit.precision?.rawValue
        source = hit.source
    }
}

/// The answer of `POST /api/places/import`: the counts, each usable record's outcome, and the records
/// that could not be read at all.
public struct PlaceImportReportResource: Codable, Sendable, Equatable {
    public struct Row: Codable, Sendable, Equatable {
        /// The record's position among the file's usable records, from 1.
        public var row: Int
        public var name: String
        public var outcome: String
        @Nullable public var placeID: Int?
        @Nullable public var reason: String?

        enum CodingKeys: String, CodingKey {
            case row, name, outcome
            case placeID = "place_id"
            case reason
        }

        public init(row: Int, name: String, outcome: String, placeID: Int?, reason: String?) {
            self.row = row
            self.name = name
            self.outcome = outcome
            self.placeID = placeID
            self.reason = reason
        }
    }

    public struct Unreadable: Codable, Sendable, Equatable {
        /// The record's position in the file (row, placemark, feature), from 1.
        public var record: Int
        public var reason: String

        public init(record: Int, reason: String) {
            self.record = record
            self.reason = reason
        }
    }

    public var format: String
    public var dryRun: Bool
    public var created: Int
    public var merged: Int
    public var skipped: Int
    /// Every row in a report answered at once; in a stored import's, the first page of them.
    public var rows: [Row]
    public var unreadable: [Unreadable]
    /// A stored import's rows, every one, a page at a time (`GET /api/imports/{id}/rows`); null in a
    /// report answered at once, whose `rows` are all of them.
    @Nullable public var rowsURL: String?

    enum CodingKeys: String, CodingKey {
        case format
        case dryRun = "dry_run"
        case created, merged, skipped, rows, unreadable
        case rowsURL = "rows_url"
    }

    public init(format: String, dryRun: Bool, rows: [Row], unreadable: [Unreadable]) {
        self.init(
            format: format, dryRun: dryRun, created: rows.filter { $0.outcome == "created" }.count,
            merged: rows.filter { $0.outcome == "merged" }.count,
            skipped: rows.filter { $0.outcome == "skipped" }.count + unreadable.count, rows: rows,
            unreadable: unreadable, rowsURL: nil)
    }

    /// A report whose counts cover more rows than it holds.
    public init(
        format: String, dryRun: Bool, created: Int, merged: Int, skipped: Int, rows: [Row], unreadable: [Unreadable],
        rowsURL: String?
    ) {
        self.format = format
        self.dryRun = dryRun
        self.created = created
        self.merged = merged
        self.skipped = skipped
        self.rows = rows
        self.unreadable = unreadable
        self.rowsURL = rowsURL
    }
}

/// `GET /api/imports/{id}`: a places import running in the background, or previewed on the web and
/// waiting to be confirmed. `report` is there once it is done (or, for a preview, what it would do).
public struct PlaceImportJobResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "import"
    /// `previewed`, `queued`, `running`, `done` or `failed`.
    public var status: String
    public var fileName: String
    /// `checking` (records read, placed, compared) or `saving`; null until it starts.
    @Nullable public var stage: String?
    public var processed: Int
    public var total: Int
    @Nullable public var report: PlaceImportReportResource?
    @Nullable public var error: String?
    public var url: String
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, status
        case fileName = "file_name"
        case stage, processed, total, report, error, url
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(
        id: Int, status: String, fileName: String, stage: String?, processed: Int, total: Int,
        report: PlaceImportReportResource?, error: String?, url: String, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.status = status
        self.fileName = fileName
        self.stage = stage
        self.processed = processed
        self.total = total
        self.report = report
        self.error = error
        self.url = url
        self.createdAt = Timestamp.string(createdAt)
        self.updatedAt = Timestamp.string(updatedAt)
    }
}
