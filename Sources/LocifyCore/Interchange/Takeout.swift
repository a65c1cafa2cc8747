import Foundation

/// Google Takeout's saved places: "Saved Places.json" in both of its generations, and the list CSVs.
public enum Takeout {
    /// Reads a "Saved Places.json". Coordinates of `[0,0]` mean Google did not know them: such a place
    /// keeps its address with no coordinate (geocode it), or is reported when it has neither.
    public static func readSavedPlaces(_ data: Data) -> PlaceImport {
        var result = PlaceImport()
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let features = root["features"] as? [[String: Any]]
        else {
            result.issues.append(InterchangeIssue(record: 0, reason: "not a Takeout Saved Places file (no features)"))
            return result
        }
        for (index, feature) in features.enumerated() {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            var coordinate = point(from: feature["geometry"] as? [String: Any])
            let name: String?
            let address: String?
            let created: Date?
            let url: String?
            if let location = properties["location"] as? [String: Any] {
                // The newer generation.
                name = text(location["name"]) ?? text(properties["Title"])
                address = text(location["address"])
                created = InterchangeDates.parse(text(properties["date"]))
                url = text(properties["google_maps_url"])
            } else {
                // The older generation.
                let location = properties["Location"] as? [String: Any] ?? [:]
                name = text(location["Business Name"]) ?? text(properties["Title"])
                address = text(location["Address"])
                created = InterchangeDates.parse(text(properties["Published"]) ?? text(properties["Updated"]))
                url = text(properties["Google Maps URL"])
                if coordinate == nil, let geo = location["Geo Coordinates"] as? [String: Any],
                    let latitude = InterchangeNumbers.double(geo["Latitude"]),
                    let longitude = InterchangeNumbers.double(geo["Longitude"])
                {
                    coordinate = valid(latitude, longitude)
                }
            }
            if coordinate == nil, let url { coordinate = coordinateInSearchURL(url) }
            guard coordinate != nil || address != nil else {
                result.issues.append(InterchangeIssue(record: index + 1, reason: "no coordinates and no address"))
                continue
            }
            let fallbackName =
                address ?? coordinate.map { PlaceRecord.unnamedLabel(latitude: $0.latitude, longitude: $0.longitude) }
                ?? ""
            result.places.append(
                PlaceRecord(
                    name: name ?? fallbackName, coordinate: coordinate, address: address, createdAt: created,
                    externalID: url))
        }
        return result
    }

    /// Reads a list CSV (`Title,Note,URL[,Tags,Comment]`). Coordinates come only from
    /// `…/maps/search/<lat>,<lon>` URLs; rows with a place URL and no coordinates are reported.
    public static func readListCSV(_ text: String, listName: String?) -> PlaceImport {
        var result = PlaceImport()
        var rows = CSV.decode(text)
        guard !rows.isEmpty else { return result }
        let header = rows.removeFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let titleColumn = header.firstIndex(of: "title"), let urlColumn = header.firstIndex(of: "url") else {
            result.issues.append(
                InterchangeIssue(record: 0, reason: "not a Takeout list: the header needs Title and URL"))
            return result
        }
        func cell(_ row: [String], _ column: Int?) -> String? {
            guard let column, column < row.count else { return nil }
            let value = row[column].trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : value
        }
        for (index, row) in rows.enumerated() {
            guard let url = cell(row, urlColumn) else {
                // Takeout writes blank spacer rows; only complain when the row had content.
                if row.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                    result.issues.append(InterchangeIssue(record: index + 1, reason: "no URL"))
                }
                continue
            }
            guard let coordinate = coordinateInSearchURL(url) else {
                result.issues.append(InterchangeIssue(record: index + 1, reason: "the URL has no coordinates (\(url))"))
                continue
            }
            let notes = [cell(row, header.firstIndex(of: "note")), cell(row, header.firstIndex(of: "comment"))]
                .compactMap { $0 }
            result.places.append(
                PlaceRecord(
                    name: cell(row, titleColumn)
                        ?? PlaceRecord.unnamedLabel(latitude: coordinate.latitude, longitude: coordinate.longitude),
                    coordinate: coordinate, notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
                    category: listName,
                    isFavorite: listName?.lowercased() == "favorite places"
                        || listName?.lowercased() == "favourite places",
                    externalID: url))
        }
        return result
    }

    /// `https://www.google.com/maps/search/47.3769,8.5417` → the coordinate.
    static func coordinateInSearchURL(_ url: String) -> Coordinate? {
        guard let range = url.range(of: "/maps/search/") else { return nil }
        let rest = url[range.upperBound...].prefix { $0 != "?" && $0 != "/" && $0 != "&" }
        let decoded = String(rest).removingPercentEncoding ?? String(rest)
        let numbers = decoded.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 2, let latitude = numbers[0], let longitude = numbers[1] else { return nil }
        return valid(latitude, longitude)
    }

    private static func point(from geometry: [String: Any]?) -> Coordinate? {
        guard let coordinates = geometry?["coordinates"] as? [Any], coordinates.count >= 2,
            let longitude = InterchangeNumbers.double(coordinates[0]),
            let latitude = InterchangeNumbers.double(coordinates[1])
        else { return nil }
        return valid(latitude, longitude)
    }

    /// In range and not Google's `[0,0]` for "unknown".
    private static func valid(_ latitude: Double, _ longitude: Double) -> Coordinate? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), latitude != 0 || longitude != 0 else {
            return nil
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static func text(_ value: Any?) -> String? {
        (value as? String).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
