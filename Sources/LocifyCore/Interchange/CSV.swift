import Foundation

/// RFC 4180 CSV: quoting, doubled quotes, line breaks inside quoted fields.
public enum CSV {
    public static func encode(_ rows: [[String]]) -> String {
        rows.map { row in row.map(quote).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The rows of `text`; a byte-order mark and a final empty line are ignored.
    public static func decode(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var justClosedQuote = false
        var characters = Array(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        if characters.last != "\n", characters.last != "\r\n" { characters.append("\n") }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if inQuotes {
                if character == "\"" {
                    if index + 1 < characters.count, characters[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                        justClosedQuote = true
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"", field.isEmpty, !justClosedQuote {
                inQuotes = true
            } else if character == "," {
                row.append(field)
                field = ""
                justClosedQuote = false
            } else if character == "\n" || character == "\r\n" || character == "\r" {
                row.append(field)
                if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
                row = []
                field = ""
                justClosedQuote = false
            } else {
                field.append(character)
            }
            index += 1
        }
        return rows
    }
}

/// Places as CSV: `name,latitude,longitude,category,favorite,address,notes,created_at,rating`.
public enum PlacesCSV {
    public static let header = [
        "name", "latitude", "longitude", "category", "favorite", "address", "notes", "created_at", "rating",
    ]

    public static func write(_ places: [PlaceRecord]) -> String {
        CSV.encode(
            [header]
                + places.map { place in
                    [
                        place.name, place.coordinate.map { MapLinks.number($0.latitude) } ?? "",
                        place.coordinate.map { MapLinks.number($0.longitude) } ?? "",
                        place.category ?? "", place.isFavorite ? "true" : "false", place.address ?? "",
                        place.notes ?? "",
                        place.createdAt.map(Timestamp.string) ?? "", place.rating.map(String.init) ?? "",
                    ]
                })
    }

    /// Columns are found by header name (any order, any case); rows without a name or with bad
    /// coordinates are reported.
    public static func read(_ text: String) -> PlaceImport {
        var result = PlaceImport()
        var rows = CSV.decode(text)
        guard !rows.isEmpty else { return result }
        let names = rows.removeFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let nameColumn = names.firstIndex(of: "name") else {
            result.issues.append(InterchangeIssue(record: 0, reason: "no name column in the header"))
            return result
        }
        for (index, row) in rows.enumerated() {
            func value(_ column: String) -> String? {
                guard let position = names.firstIndex(of: column), position < row.count else { return nil }
                let text = row[position].trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            let name = nameColumn < row.count ? row[nameColumn].trimmingCharacters(in: .whitespaces) : ""
            guard !name.isEmpty else {
                result.issues.append(InterchangeIssue(record: index + 1, reason: "no name"))
                continue
            }
            var coordinate: Coordinate?
            let latitudeText = value("latitude")
            let longitudeText = value("longitude")
            if latitudeText != nil || longitudeText != nil {
                guard let latitude = latitudeText.flatMap(Double.init),
                    let longitude = longitudeText.flatMap(Double.init),
                    (-90...90).contains(latitude), (-180...180).contains(longitude)
                else {
                    result.issues.append(
                        InterchangeIssue(
                            record: index + 1, reason: "latitude and longitude must both be numbers in range"))
                    continue
                }
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
            }
            result.places.append(
                PlaceRecord(
                    name: name, coordinate: coordinate, address: value("address"), notes: value("notes"),
                    category: value("category"),
                    isFavorite: ["true", "1", "yes"].contains(value("favorite")?.lowercased() ?? ""),
                    rating: value("rating").flatMap { Int($0) },
                    createdAt: InterchangeDates.parse(value("created_at"))))
        }
        return result
    }
}
