import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Answers of an outside geocoder kept in the database, so the same address text is sent once (Nominatim's
/// policy asks for caching) and several servers on one database share what they learned.
struct GeocodeCache {
    let database: any Database

    enum Answer: Equatable {
        case found(GeocodingResult)
        case nothing
    }

    static func key(for query: GeocodingQuery, source: String) -> String {
        "\(source)|\(query.country ?? "")|\(query.text.lowercased())"
    }

    func answer(for key: String) async throws -> Answer? {
        let columns = GeocodeCacheTable.selection([
            .found, .latitude, .longitude, .precision, .source, .displayName, .country,
        ])
        let rows = try await database.plainRows(
            #"SELECT \#(columns.list) FROM "geocode_cache" WHERE "lookup_key" = \#(bind: key)"#,
            columns: columns.names)
        guard let row = rows.first else { return nil }
        guard try row.requiredBool(0), let latitude = try row.double(1), let longitude = try row.double(2) else {
            return .nothing
        }
        return .found(
            GeocodingResult(
                coordinate: Coordinate(latitude: latitude, longitude: longitude),
                displayName: try row.text(5) ?? "", countryCode: try row.text(6),
                precision: try row.text(3).flatMap(GeocodingPrecision.init(rawValue:)) ?? .city,
                source: try row.text(4) ?? ""))
    }

    func keep(_ answer: Answer, for key: String, now: Date) async throws {
        let result: GeocodingResult? =
            switch answer {
            case .found(let result): result
            case .nothing: nil
            }
        try await TableWriter(GeocodeCacheTable.self, on: database).insert(
            [
                .lookupKey: key, .found: result != nil, .latitude: result?.coordinate.latitude,
                .longitude: result?.coordinate.longitude, .precision: result?.precision.rawValue,
                .source: result?.source, .displayName: result?.displayName, .country: result?.countryCode,
                .createdAt: now,
            ], onConflict: [.lookupKey])
    }
}
