import Foundation

/// GPX 1.1: one `<wpt>` per place; the category in `<type>`, which other apps read as the category.
public enum GPX {
    public static func write(_ places: [PlaceRecord], creator: String = "Locify") -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(XMLText.escape(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:locify="https://locify.app/gpx/1">

            """
        for place in places {
            guard let point = place.coordinate else { continue }
            xml += "  <wpt lat=\"\(MapLinks.number(point.latitude))\" lon=\"\(MapLinks.number(point.longitude))\">\n"
            if let created = place.createdAt { xml += "    <time>\(Timestamp.string(created))</time>\n" }
            xml += "    <name>\(XMLText.escape(place.name))</name>\n"
            if let notes = place.notes { xml += "    <desc>\(XMLText.escape(notes))</desc>\n" }
            for photo in place.photos {
                xml +=
                    "    <link href=\"\(XMLText.escape(photo.link))\"><text>Photo</text><type>\(photo.mimeType)</type></link>\n"
            }
            if let category = place.category { xml += "    <type>\(XMLText.escape(category))</type>\n" }
            if place.isFavorite || place.address != nil || place.rating != nil {
                xml += "    <extensions>\n"
                if let address = place.address {
                    xml += "      <locify:address>\(XMLText.escape(address))</locify:address>\n"
                }
                if place.isFavorite { xml += "      <locify:favorite>true</locify:favorite>\n" }
                if let rating = place.rating { xml += "      <locify:rating>\(rating)</locify:rating>\n" }
                xml += "    </extensions>\n"
            }
            xml += "  </wpt>\n"
        }
        return xml + "</gpx>\n"
    }

    /// Reads waypoints (and route and track points that carry a name).
    public static func read(_ data: Data) -> PlaceImport {
        PlaceImport.fromXML(data) { root, result in
            let points =
                root.descendants("wpt")
                + (root.descendants("rtept") + root.descendants("trkpt")).filter { $0.child("name") != nil }
            for (index, point) in points.enumerated() {
                guard let latitude = point.attributes["lat"].flatMap(Double.init),
                    let longitude = point.attributes["lon"].flatMap(Double.init),
                    (-90...90).contains(latitude), (-180...180).contains(longitude)
                else {
                    result.issues.append(InterchangeIssue(record: index + 1, reason: "no valid lat and lon"))
                    continue
                }
                let extensions = point.child("extensions")
                result.places.append(
                    PlaceRecord(
                        name: point.childText("name")
                            ?? PlaceRecord.unnamedLabel(latitude: latitude, longitude: longitude),
                        coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        address: extensions?.childText("address"),
                        notes: point.childText("desc") ?? point.childText("cmt"), category: point.childText("type"),
                        isFavorite: extensions?.childText("favorite") == "true",
                        rating: extensions?.childText("rating").flatMap { Int($0) },
                        createdAt: InterchangeDates.parse(point.childText("time"))))
            }
        }
    }
}
