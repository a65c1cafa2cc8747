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
        let columns = ["found", "latitude", "longitude", "precision", "source", "display_name", "country"]
        let rows = try await database.plainRows(
            """
            SELECT \(SQLQueryString.columnList(columns)) FROM "geocode_cache" WHERE "lookup_key" = \(bind: key)
            """, columns: columns)
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
        try await database.sqlDatabase().raw(
            """
            INSERT INTO "geocode_cache" ("lookup_key", "found", "latitude", "longitude", "precision", "source", \
            "display_name", "country", "created_at") VALUES (\(bind: key), \(bind: result != nil), \
            \(bind: result?.coordinate.latitude), \(bind: result?.coordinate.longitude), \
            \(bind: result?.precision.rawValue), \(bind: result?.source), \(bind: result?.displayName), \
            \(bind: result?.countryCode), \(bind: now)) ON CONFLICT ("lookup_key") DO NOTHING
            """
        ).run()
    }
}

struct CreateGeocodeCache: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("geocode_cache")
            .field("id", .int, .identifier(auto: true))
            .field("lookup_key", .string, .required)
            .field("found", .bool, .required)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("precision", .string)
            .field("source", .string)
            .field("display_name", .string)
            .field("country", .string)
            .field("created_at", .datetime, .required)
            .unique(on: "lookup_key")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("geocode_cache").delete()
    }
}
