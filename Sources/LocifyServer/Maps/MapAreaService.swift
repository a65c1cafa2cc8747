import Fluent
import Foundation
import LocifyCore

/// One account's areas of the map kept for offline use.
struct MapAreaService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    /// More areas than this is a sign of something gone wrong (a script saving in a loop).
    static let maximumAreas = 100

    private static let columns = MapAreasTable.areaColumns

    /// The account's areas, newest first.
    func all() async throws -> [MapArea] {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "map_areas" WHERE "user_id" = \(literal: ownerID) \
            ORDER BY "created_at" DESC, "id" DESC
            """, columns: Self.columns.names)
        return try rows.map(MapAreasTable.area(from:))
    }

    func area(_ uuid: UUID) async throws -> MapArea {
        let rows = try await database.plainRows(
            """
            SELECT \(Self.columns.list) FROM "map_areas" \
            WHERE "user_id" = \(literal: ownerID) AND "uuid" = \(bind: uuid)
            """, columns: Self.columns.names)
        guard let row = rows.first else { throw AppError.notFound }
        return try MapAreasTable.area(from: row)
    }

    func create(_ draft: MapAreaDraft, typeErrors: [FieldError] = [], source: MapTileSource) async throws -> MapArea {
        let plan = try draft.validated(typeErrors: typeErrors)
        let kept = try await database.plainRows(
            #"SELECT COUNT(*) AS "areas" FROM "map_areas" WHERE "user_id" = \#(literal: ownerID)"#, columns: ["areas"])
        guard try (kept.first?.integer(0) ?? 0) < Self.maximumAreas else {
            throw ValidationFailure(
                field: "name", "An account keeps at most \(Self.maximumAreas) map areas: delete one first.",
                reason: .conflict)
        }
        let now = dependencies.now()
        let uuid = dependencies.newUUID()
        let box = plan.box
        let id = try await TableWriter(MapAreasTable.self, on: database).insert([
            .uuid: uuid, .owner: ownerID, .name: plan.name, .south: box.south, .west: box.west, .north: box.north,
            .east: box.east, .maximumZoom: plan.maximumZoom, .source: source.rawValue, .createdAt: now,
        ])
        return MapArea(
            id: id, uuid: uuid, ownerID: ownerID, plan: plan, source: source, byteCount: nil, createdAt: now)
    }

    /// Keeps the size of the area's archive, once made, for the lists.
    func recordSize(of area: MapArea, bytes: Int) async throws {
        guard area.byteCount != bytes else { return }
        try await TableWriter(MapAreasTable.self, on: database).update(
            area.id, ownedBy: ownerID, set: [.byteCount: bytes])
    }

    func delete(_ area: MapArea) async throws {
        try await TableWriter(MapAreasTable.self, on: database).delete(area.id, ownedBy: ownerID)
    }
}
