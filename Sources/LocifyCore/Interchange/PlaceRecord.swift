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
    public var createdAt: Date?
    /// Organic Maps' placemark colour ("red", "blue", …).
    public var color: String?
    /// An identifier from the source (a Google Maps URL), for merging repeated imports.
    public var externalID: String?

    public init(
        name: String, coordinate: Coordinate?, address: String? = nil, notes: String? = nil, category: String? = nil,
        isFavorite: Bool = false, createdAt: Date? = nil, color: String? = nil, externalID: String? = nil
    ) {
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

/// What a reader made of a file: the places it could use and, for the rest, why not.
public struct PlaceImport: Equatable, Sendable {
    public var places: [PlaceRecord] = []
    public var issues: [InterchangeIssue] = []
}

enum InterchangeDates {
    static func parse(_ text: String?) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        // Takeout's older "2019-05-04T10:06:05Z" and date-only values.
        if let day = CalendarDate(iso8601: text) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
        }
        return nil
    }
}
