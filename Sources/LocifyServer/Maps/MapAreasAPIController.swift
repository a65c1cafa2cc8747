import LocifyAPI
import LocifyCore
import Vapor

/// `/api/map-areas`: the areas of the map an account keeps for offline use, what one would take, and each
/// one's tiles as a PMTiles archive (for the web app's device copy, other map apps and LocifyKit).
struct MapAreasAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MapPaths.apiAreas, use: index)
        routes.post(MapPaths.apiAreas, use: create)
        routes.post(MapPaths.apiEstimate, use: estimate)
        routes.get(MapPaths.apiArea, use: show)
        routes.delete(MapPaths.apiArea, use: delete)
    }

    func index(request: Request) async throws -> DataEnvelope<[MapAreaResource]> {
        let areas = try await request.mapAreas().all()
        return DataEnvelope(data: areas.map { request.mapAreaResource($0) })
    }

    func estimate(request: Request) async throws -> DataEnvelope<MapAreaEstimateResource> {
        let input = try request.jsonInput(MapAreaInput.self, empty: MapAreaInput(draft: MapAreaDraft()))
        let plan = try input.draft.validated(typeErrors: input.typeErrors)
        let source = request.mapAreaTileSource
        return DataEnvelope(
            data: MapAreaEstimateResource(plan, estimatedBytes: source.estimatedBytes(of: plan), source: source.source))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(MapAreaInput.self, empty: MapAreaInput(draft: MapAreaDraft()))
        let area = try await request.mapAreas().create(
            input.draft, typeErrors: input.typeErrors, source: request.mapAreaTileSource.source)
        let response = try await DataEnvelope(data: request.mapAreaResource(area)).encodeResponse(
            status: .created, for: request)
        response.headers.replaceOrAdd(
            name: .location, value: request.absoluteURL(MapPaths.apiArea(area.uuid.lowercasedText)))
        return response
    }

    /// The area, or with `.pmtiles` its archive (made on the first download; ranges are answered, so a
    /// map app can read it over HTTP as it reads any PMTiles file).
    func show(request: Request) async throws -> Response {
        let name = request.pathText(.mapArea) ?? ""
        let isArchive = name.hasSuffix(MapPaths.archiveSuffix)
        // Not an area's id: answered as a path no route takes (`/estimate` only takes POST).
        guard let uuid = UUID(uuidString: isArchive ? String(name.dropLast(MapPaths.archiveSuffix.count)) : name)
        else { throw PathIDNotANumber() }
        let service = try request.mapAreas()
        let area = try await service.area(uuid)
        guard isArchive else {
            return try await DataEnvelope(data: request.mapAreaResource(area)).encodeResponse(for: request)
        }
        let file = try await request.application.mapAreaArchives.archive(
            of: area, from: request.mapAreaTileSource(for: area), now: request.now)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
        if let size { try await service.recordSize(of: area, bytes: size) }
        let response = try await request.fileio.asyncStreamFile(
            at: file.path, mediaType: HTTPMediaType(type: "application", subType: "vnd.pmtiles"))
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: #"attachment; filename="\#(area.plan.fileName).pmtiles""#)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        // A whole archive shrinks on the way (SVG drawings to a third); a range is sent as it is stored.
        if request.headers.first(name: .range) == nil { response.headers.responseCompression = .enable }
        return response
    }

    func delete(request: Request) async throws -> MapAreaDeletedResource {
        let area = try await request.deleteMapArea()
        return MapAreaDeletedResource(id: area.uuid)
    }
}

extension MapAreaPlan {
    /// The name as a file name: letters, digits and dashes.
    var fileName: String {
        let kept = name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }
        let joined = String(kept).split(separator: "-").joined(separator: "-")
        return joined.isEmpty ? "map-area" : String(joined.prefix(80))
    }
}

extension Request {
    /// The signed-in user's saved map areas.
    func mapAreas() throws -> MapAreaService {
        MapAreaService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Deletes the area named in the path, and its archive.
    func deleteMapArea() async throws -> MapArea {
        // An archive, `/estimate` or no id at all: answered as a path no DELETE route takes.
        guard let uuid = UUID(uuidString: pathText(.mapArea) ?? "") else { throw PathIDNotANumber() }
        let service = try mapAreas()
        let area = try await service.area(uuid)
        try await service.delete(area)
        application.mapAreaArchives.remove(area)
        return area
    }

    /// Where new areas' tiles come from, by the configuration.
    var mapAreaTileSource: MapAreaTileSource {
        let outside = application.locifyConfig.outside
        let source: MapTileSource =
            if outside.tileURLTemplate != nil && outside.tileOfflineDownloadAllowed {
                .tileServer
            } else if application.basemapFile != nil {
                .basemapFile
            } else {
                .basemap
            }
        return tileSource(source)
    }

    /// Where a saved area's tiles come from: its own source while the configuration still offers it, else
    /// the one new areas take.
    func mapAreaTileSource(for area: MapArea) -> MapAreaTileSource {
        let outside = application.locifyConfig.outside
        let available =
            switch area.source {
            case .basemap: true
            case .tileServer: outside.tileURLTemplate != nil && outside.tileOfflineDownloadAllowed
            case .basemapFile: application.basemapFile != nil
            }
        return available ? tileSource(area.source) : mapAreaTileSource
    }

    private func tileSource(_ source: MapTileSource) -> MapAreaTileSource {
        MapAreaTileSource(
            source: source, fetcher: dependencies.tiles, tileCache: application.tileCache,
            cpuWork: application.cpuWork, file: application.basemapFile)
    }

    func mapAreaResource(_ area: MapArea) -> MapAreaResource {
        let source = mapAreaTileSource(for: area)
        return MapAreaResource(
            area, tilePath: source.tilePath, estimatedBytes: source.estimatedBytes(of: area.plan),
            pmtilesURL: absoluteURL(MapPaths.archive(area)))
    }
}

extension Application {
    private struct MapAreaArchivesKey: StorageKey {
        typealias Value = MapAreaArchives
    }

    var mapAreaArchives: MapAreaArchives {
        get { configured(MapAreaArchivesKey.self) }
        set { storage[MapAreaArchivesKey.self] = newValue }
    }
}
