import Foundation
import ZIPFoundation

/// KML 2.2 in Organic Maps' style: a `<Document>` named after the category, placemarks with a
/// coloured style. KMZ is a zip holding `doc.kml`.
public enum KML {
    /// Organic Maps' placemark colours.
    public static let colors = [
        "red", "pink", "purple", "deeppurple", "blue", "lightblue", "cyan", "teal", "green",
        "lime", "yellow", "orange", "deeporange", "brown", "gray", "bluegray",
    ]

    /// One document, each category's places in a folder of its name (Organic Maps keeps one file per
    /// list; a file of one category is then one folder in the document).
    /// `photosInFile`: a KMZ's placemarks name their pictures by their files in it, a KML's by their links.
    public static func write(_ places: [PlaceRecord], documentName: String, photosInFile: Bool = false) -> String {
        let used = Set(places.map { style(for: $0) }).sorted()
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document>
              <name>\(XMLText.escape(documentName))</name>

            """
        for color in used {
            xml +=
                "  <Style id=\"placemark-\(color)\"><IconStyle><Icon><href>https://omaps.app/placemarks/placemark-\(color).png</href></Icon></IconStyle></Style>\n"
        }
        // Each category in a <Folder> of its name, which readers (this one included) take as the category;
        // places without one sit in the document itself.
        var groups: [(String?, [PlaceRecord])] = []
        for place in places {
            if let index = groups.firstIndex(where: { $0.0 == place.category }) {
                groups[index].1.append(place)
            } else {
                groups.append((place.category, [place]))
            }
        }
        for (category, members) in groups {
            if let category { xml += "  <Folder>\n  <name>\(XMLText.escape(category))</name>\n" }
            for place in members { xml += placemark(place, photosInFile: photosInFile) }
            if category != nil { xml += "  </Folder>\n" }
        }
        return xml + "</Document>\n</kml>\n"
    }

    private static func placemark(_ place: PlaceRecord, photosInFile: Bool) -> String {
        guard let point = place.coordinate else { return "" }
        var xml = ""
        xml += "  <Placemark>\n    <name>\(XMLText.escape(place.name))</name>\n"
        if let notes = place.notes {
            // CDATA keeps markup readable where the text has it, as Organic Maps writes it.
            let body =
                notes.contains("<") || notes.contains("&")
                ? "<![CDATA[" + notes.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
                : XMLText.escape(notes)
            xml += "    <description>\(body)</description>\n"
        }
        if let created = place.createdAt {
            xml += "    <TimeStamp><when>\(Timestamp.string(created))</when></TimeStamp>\n"
        }
        xml += "    <styleUrl>#placemark-\(style(for: place))</styleUrl>\n"
        var extended: [(String, String)] = []
        if let address = place.address { extended.append(("address", address)) }
        if place.isFavorite { extended.append(("favorite", "true")) }
        if let rating = place.rating { extended.append(("rating", String(rating))) }
        if !extended.isEmpty {
            xml +=
                "    <ExtendedData>\n"
                + extended.map { "      <Data name=\"\($0.0)\"><value>\(XMLText.escape($0.1))</value></Data>\n" }
                .joined() + "    </ExtendedData>\n"
        }
        if !place.photos.isEmpty {
            // Google Earth's carousel of pictures; other readers skip the extension.
            xml +=
                "    <gx:Carousel>\n"
                + place.photos.map {
                    "      <gx:Image><gx:ImageUrl>\(XMLText.escape(photosInFile ? $0.fileName : $0.link))</gx:ImageUrl></gx:Image>\n"
                }.joined() + "    </gx:Carousel>\n"
        }
        xml +=
            "    <Point><coordinates>\(MapLinks.number(point.longitude)),\(MapLinks.number(point.latitude))</coordinates></Point>\n  </Placemark>\n"
        return xml
    }

    /// Placemarks with a point. The category is the nearest `<Folder>` or `<Document>` name; a
    /// placemark without a name is named "lat, lon"; one without a style is red.
    public static func read(_ data: Data) -> PlaceImport {
        PlaceImport.fromXML(data) { root, result in
            var count = 0
            func visit(_ node: XMLElementNode, category: String?) {
                let here = ["Document", "Folder"].contains(node.name) ? (node.childText("name") ?? category) : category
                for child in node.children {
                    if child.name == "Placemark" {
                        count += 1
                        read(child, category: here, record: count, into: &result)
                    } else {
                        visit(child, category: here)
                    }
                }
            }
            visit(root, category: nil)
        }
    }

    private static func read(
        _ placemark: XMLElementNode, category: String?, record: Int, into result: inout PlaceImport
    ) {
        guard let coordinates = placemark.descendants("Point").first?.childText("coordinates") else {
            result.issues.append(InterchangeIssue(record: record, reason: "no point (lines and areas are not places)"))
            return
        }
        let numbers = coordinates.split(separator: ",").map {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard numbers.count >= 2, let longitude = numbers[0], let latitude = numbers[1],
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else {
            result.issues.append(InterchangeIssue(record: record, reason: "coordinates \(coordinates) are not lon,lat"))
            return
        }
        var extended: [String: String] = [:]
        for data in placemark.descendants("Data") {
            if let name = data.attributes["name"] { extended[name] = data.childText("value") }
        }
        let styleURL = placemark.childText("styleUrl") ?? ""
        let color = colors.first { styleURL.hasSuffix("placemark-\($0)") } ?? "red"
        result.places.append(
            PlaceRecord(
                name: placemark.childText("name") ?? PlaceRecord.unnamedLabel(latitude: latitude, longitude: longitude),
                coordinate: Coordinate(latitude: latitude, longitude: longitude),
                address: extended["address"] ?? placemark.childText("address"),
                notes: placemark.childText("description"), category: category,
                isFavorite: extended["favorite"] == "true", rating: extended["rating"].flatMap { Int($0) },
                createdAt: InterchangeDates.parse(placemark.child("TimeStamp")?.childText("when")), color: color))
    }

    private static func style(for place: PlaceRecord) -> String {
        place.color.flatMap { colors.contains($0) ? $0 : nil } ?? "red"
    }

    /// A KMZ: a zip archive holding `doc.kml` and the places' pictures, each under its `fileName`.
    public static func writeKMZ(_ places: [PlaceRecord], documentName: String) throws -> Data {
        let archive = try Archive(accessMode: .create)
        let kml = Data(write(places, documentName: documentName, photosInFile: true).utf8)
        try archive.addEntry(
            with: "doc.kml", type: .file, uncompressedSize: Int64(kml.count), compressionMethod: .deflate
        ) { position, size in
            kml.subdata(in: Int(position)..<Int(position) + size)
        }
        var added: Set<String> = []
        for photo in places.flatMap(\.photos) {
            guard let bytes = photo.bytes, added.insert(photo.fileName).inserted else { continue }
            // Pictures are compressed already: stored as they are.
            try archive.addEntry(
                with: photo.fileName, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .none
            ) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
        guard let data = archive.data else { throw FormatProblem(reason: "the KMZ archive could not be written") }
        return data
    }

    /// Reads the first `.kml` file in a KMZ (`doc.kml` by convention).
    public static func readKMZ(_ data: Data) -> PlaceImport {
        guard let archive = try? Archive(data: data, accessMode: .read),
            let entry = archive.first(where: { $0.path == "doc.kml" })
                ?? archive.first(where: { $0.path.lowercased().hasSuffix(".kml") })
        else {
            return PlaceImport(
                places: [], issues: [InterchangeIssue(record: 0, reason: "not a KMZ: no .kml file inside")])
        }
        var kml = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { kml.append($0) }
        } catch {
            return PlaceImport(
                places: [], issues: [InterchangeIssue(record: 0, reason: "the KMZ is damaged: \(error)")])
        }
        return read(kml)
    }
}
