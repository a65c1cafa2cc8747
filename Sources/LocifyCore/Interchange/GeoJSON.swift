import Foundation

/// GeoJSON (RFC 7946): a FeatureCollection of Points, `[lon, lat]`, with the place in `properties`.
public enum GeoJSON {
    public static func write(_ places: [PlaceRecord]) throws -> Data {
        let features: [[String: Any]] = places.compactMap { place in
            guard let point = place.coordinate else { return nil }
            var properties: [String: Any] = ["name": place.name, "favorite": place.isFavorite]
            properties["notes"] = place.notes
            properties["category"] = place.category
            properties["address"] = place.address
            properties["created_at"] = place.createdAt.map(Timestamp.string)
            properties["rating"] = place.rating
            if !place.photos.isEmpty { properties["photos"] = place.photos.map(\.link) }
            return [
                "type": "Feature",
                "geometry": ["type": "Point", "coordinates": [point.longitude, point.latitude]],
                "properties": properties,
            ]
        }
        return try JSONSerialization.data(
            withJSONObject: ["type": "FeatureCollection", "features": features],
            options: [.sortedKeys, .withoutEscapingSlashes])
    }

    public static func read(_ data: Data) -> PlaceImport {
        var result = PlaceImport()
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            result.issues.append(InterchangeIssue(record: 0, reason: "not a JSON object"))
            return result
        }
        let features = root["type"] as? String == "Feature" ? [root] : (root["features"] as? [[String: Any]] ?? [])
        if features.isEmpty, root["features"] == nil, root["type"] as? String != "Feature" {
            result.issues.append(InterchangeIssue(record: 0, reason: "not a GeoJSON FeatureCollection"))
        }
        for (index, feature) in features.enumerated() {
            let geometry = feature["geometry"] as? [String: Any]
            guard geometry?["type"] as? String == "Point", let coordinates = geometry?["coordinates"] as? [Any],
                coordinates.count >= 2,
                let longitude = InterchangeNumbers.double(coordinates[0]),
                let latitude = InterchangeNumbers.double(coordinates[1]),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                result.issues.append(InterchangeIssue(record: index + 1, reason: "not a Point with [lon, lat]"))
                continue
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            func text(_ key: String) -> String? { (properties[key] as? String).flatMap { $0.isEmpty ? nil : $0 } }
            result.places.append(
                PlaceRecord(
                    name: text("name") ?? text("title")
                        ?? PlaceRecord.unnamedLabel(latitude: latitude, longitude: longitude),
                    coordinate: Coordinate(latitude: latitude, longitude: longitude), address: text("address"),
                    notes: text("notes") ?? text("description"), category: text("category"),
                    isFavorite: properties["favorite"] as? Bool ?? false,
                    rating: properties["rating"].flatMap { InterchangeNumbers.double($0) }.flatMap(Int.init(exactly:)),
                    createdAt: InterchangeDates.parse(text("created_at"))))
        }
        return result
    }
}
