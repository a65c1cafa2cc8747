import Foundation

/// A saved place as the import and export formats carry it.
public struct PlaceRecord: Equatable, Sendable {
    public var name: String
    /// nil when the source did not know it (Takeout's `[0,0]`): geocode the address, else report.
    public var coordinate: Coordinate?
    public var address: String?
    public var notes: String?
    public var category: String?
    public var isFavorite: Bool
    /// 1 to 5 stars; a value out of that range in a file is no rating.
    public var rating: Int?
    public var createdAt: Date?
    /// Organic Maps' placemark colour ("red", "blue", …).
    public var color: String?
    /// An identifier from the source (a Google Maps URL), for merging repeated imports.
    public var externalID: String?
    /// Set when the importer had the geocoder place the record by its address: how exactly it could.
    public var coordinatePrecision: CoordinatePrecision?
    /// The place's pictures, cover first, for exports (imports do not read them).
    public var photos: [Picture] = []

    /// A picture as an export carries it: a link for the formats that link (GPX, GeoJSON, KML), the file
    /// itself for the one that holds files (KMZ, under `fileName`).
    public struct Picture: Equatable, Sendable {
        public var link: String
        public var fileName: String
        public var mimeType: String
        public var bytes: [UInt8]?

        public init(link: String, fileName: String, mimeType: String, bytes: [UInt8]? = nil) {
            self.link = link
            self.fileName = fileName
            self.mimeType = mimeType
            self.bytes = bytes
        }
    }

    public init(
        name: String, coordinate: Coordinate?, address: String? = nil, notes: String? = nil, category: String? = nil,
        isFavorite: Bool = false, rating: Int? = nil, createdAt: Date? = nil, color: String? = nil,
        externalID: String? = nil
    ) {
        self.rating = rating.flatMap { PlaceDraft.ratings.contains($0) ? $0 : nil }
        self.name = name
        self.coordinate = coordinate
        self.address = address
        self.notes = notes
        self.category = category
        self.isFavorite = isFavorite
        self.createdAt = createdAt
        self.color = color
        self.externalID = externalID
    }
}

extension PlaceRecord {
    /// The name given to a place that has none: "48.85, 2.35", as Organic Maps does.
    static func unnamedLabel(latitude: Double, longitude: Double) -> String {
        "\(MapLinks.number(latitude)), \(MapLinks.number(longitude))"
    }
}

/// What a reader made of a file: the places it could use and, for the rest, why not.
public struct PlaceImport: Equatable, Sendable {
    public var places: [PlaceRecord] = []
    public var issues: [InterchangeIssue] = []
}

/// A file that cannot be read or written at all (not XML, not a zip, not GeoJSON).
struct FormatProblem: Error {
    let reason: String
}

/// JSON numbers as sources write them: numbers, or numbers in strings.
enum InterchangeNumbers {
    static func double(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
            ?? (value as? String).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
}

enum InterchangeDates {
    /// Takeout's and GeoJSON's times, including older "2019-05-04T10:06:05Z" and date-only values.
    static func parse(_ text: String?) -> Date? { MomentText.date(from: text) }
}
