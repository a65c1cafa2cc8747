import Foundation

/// The formats places are imported from, recognised by their content (never by the file's name).
public enum PlaceImportFormat: String, CaseIterable, Sendable {
    case gpx, kml, kmz, geojson, csv
    case takeoutSavedPlaces = "takeout"
    case takeoutListCSV = "takeout-list"

    /// What `data` holds, or nil when it is none of the formats.
    public static func detect(_ data: Data) -> PlaceImportFormat? {
        let bytes = [UInt8](data.prefix(4096))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .kmz }
        let head = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}"))
        if head.hasPrefix("<") {
            if head.contains("<gpx") { return .gpx }
            if head.contains("<kml") { return .kml }
            return nil
        }
        if head.hasPrefix("{") {
            guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let features = root["features"] as? [[String: Any]]
            else { return nil }
            let takeout = features.contains { feature in
                let properties = feature["properties"] as? [String: Any] ?? [:]
                return properties["location"] != nil || properties["Location"] != nil
                    || properties["google_maps_url"] != nil || properties["Google Maps URL"] != nil
            }
            return takeout ? .takeoutSavedPlaces : .geojson
        }
        let firstLine = head.split(whereSeparator: \.isNewline).first.map { String($0).lowercased() } ?? ""
        let columns = CSV.decode(firstLine).first?.map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        if columns.contains("latitude") && columns.contains("longitude") { return .csv }
        if columns.starts(with: ["title", "note", "url"]) { return .takeoutListCSV }
        return nil
    }

    /// The places in `data` and, for what could not be used, why. `listName` names a Takeout list CSV's
    /// places' category (its file name).
    public func read(_ data: Data, listName: String? = nil) -> PlaceImport {
        switch self {
        case .gpx: GPX.read(data)
        case .kml: KML.read(data)
        case .kmz: KML.readKMZ(data)
        case .geojson: GeoJSON.read(data)
        case .csv: PlacesCSV.read(String(decoding: data, as: UTF8.self))
        case .takeoutSavedPlaces: Takeout.readSavedPlaces(data)
        case .takeoutListCSV: Takeout.readListCSV(String(decoding: data, as: UTF8.self), listName: listName)
        }
    }
}

/// What an import did with each place it read: created, merged into one already saved, or skipped.
public enum PlaceImportOutcome: Equatable, Sendable {
    case created
    /// The same place was already saved: the same external id, or the same name within 25 m.
    case merged(placeID: Int)
    case skipped(reason: String)

    /// Two places this close with the same name are one.
    public static let mergeDistanceMeters = 25.0

    /// Whether `record` is `place` again: the same external id, or the same name (ignoring case and
    /// accents) within 25 m.
    public static func isSame(_ record: PlaceRecord, as place: Place) -> Bool {
        if let id = record.externalID, id == place.fields.externalID { return true }
        guard let coordinate = record.coordinate,
            TextFolding.searchKey([record.name]) == TextFolding.searchKey([place.fields.name])
        else { return false }
        return Geo.distance(coordinate, place.fields.coordinate) <= mergeDistanceMeters
    }
}

/// Finds the saved place an imported record is (`PlaceImportOutcome.isSame`) without comparing it with
/// every place: candidates come from the external id and the folded name, so importing a large file
/// into a large collection stays linear.
public struct PlaceMatcher: Sendable {
    private var places: [Place] = []
    private var byExternalID: [String: [Int]] = [:]
    private var byName: [String: [Int]] = [:]

    public init(_ places: [Place] = []) {
        for place in places { add(place) }
    }

    public mutating func add(_ place: Place) {
        let index = places.count
        places.append(place)
        if let id = place.fields.externalID { byExternalID[id, default: []].append(index) }
        byName[TextFolding.searchKey([place.fields.name]), default: []].append(index)
    }

    /// The first place added that `record` is, as `places.first { isSame(record, as: $0) }` would find.
    public func match(_ record: PlaceRecord) -> Place? {
        var candidates = record.externalID.flatMap { byExternalID[$0] } ?? []
        candidates += byName[TextFolding.searchKey([record.name])] ?? []
        return candidates.sorted().lazy.map { places[$0] }.first { PlaceImportOutcome.isSame(record, as: $0) }
    }
}
