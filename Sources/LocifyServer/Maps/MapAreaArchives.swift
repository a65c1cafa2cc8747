import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import NIOPosix

/// Where a saved area's tiles come from, by the administrator's configuration: the tile server when its
/// policy allows offline download (`LOCIFY_TILE_OFFLINE=allowed`), else Locify's own basemap.
struct MapAreaTileSource: Sendable {
    let source: MapTileSource
    let fetcher: any TileFetching
    let tileCache: TileCache
    let cpuWork: NIOThreadPool
    let file: (any RasterBasemapFile)?

    /// Tiles fetched or drawn at once: the tile server sees a few requests at a time, the pool's threads
    /// each get a batch of drawings.
    private static let concurrentFetches = 4
    private static let drawingBatch = 64

    var tileType: PMTiles.TileType {
        switch source {
        case .basemap: .unknown
        case .tileServer: .png
        case .basemapFile: file?.tileType ?? .png
        }
    }

    /// The address the map widget asks for the tile, which a device keeps the tile under.
    var tilePath: String {
        switch source {
        case .basemap: "/maps/basemap/{z}/{x}/{y}.svg"
        case .tileServer, .basemapFile: "/maps/tiles/{z}/{x}/{y}.png"
        }
    }

    /// About what an area takes, before it is made: the average tile measured on city areas (the basemap's
    /// drawings; OpenStreetMap-style PNGs).
    func estimatedBytes(of plan: MapAreaPlan) -> Int {
        plan.tileCount * (source == .basemap ? 1_400 : 15_000)
    }

    /// Every tile of the area with its bytes; a tile the tile server does not have is left out.
    func tiles(of plan: MapAreaPlan, now: Date) async throws -> [(tile: Tile, bytes: Data)] {
        switch source {
        case .basemap:
            let all = plan.tiles
            let batches = stride(from: 0, to: all.count, by: Self.drawingBatch).map {
                Array(all[$0..<min($0 + Self.drawingBatch, all.count)])
            }
            return try await withThrowingTaskGroup(of: [(tile: Tile, bytes: Data)].self) { group in
                for batch in batches {
                    group.addTask { [cpuWork] in
                        try await cpuWork.offloaded {
                            batch.map { (tile: $0, bytes: Data(Basemap.bundled.tile($0).utf8)) }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        case .basemapFile:
            guard let file else { return [] }
            var found: [(tile: Tile, bytes: Data)] = []
            for tile in plan.tiles {
                if let bytes = try await file.bytes(of: tile) { found.append((tile, bytes)) }
            }
            return found
        case .tileServer:
            var found: [(tile: Tile, bytes: Data)] = []
            var pending = plan.tiles[...]
            try await withThrowingTaskGroup(of: (Tile, Data?).self) { group in
                func startNext() {
                    guard let tile = pending.popFirst() else { return }
                    group.addTask { [tileCache, fetcher] in
                        do {
                            let (bytes, _) = try await tileCache.tile(tile, now: now) { try await fetcher.fetch($0) }
                            return (tile, bytes)
                        } catch let failure as OutsideServiceError where failure.reason == .status(404) {
                            return (tile, nil)
                        }
                    }
                }
                for _ in 0..<Self.concurrentFetches { startNext() }
                while let (tile, bytes) = try await group.next() {
                    if let bytes { found.append((tile, bytes)) }
                    startNext()
                }
            }
            return found
        }
    }
}

/// Each area's PMTiles archive, made on its first download and kept under the data directory
/// (`map-areas/`), named by what made it so a new basemap drawing or another source makes it again.
/// Two downloads of an area being made wait for the one making.
final class MapAreaArchives: Sendable {
    let directory: URL
    private let inFlight = NIOLockedValueBox<[String: Task<URL, any Error>]>([:])

    init(directory: URL) {
        self.directory = directory
    }

    private func fileName(_ area: MapArea, _ source: MapAreaTileSource) -> String {
        let maker =
            switch source.source {
            case .basemap: "basemap-\(LocifyConfig.version)"
            case .tileServer: source.source.rawValue
            // Another file under the same setting makes the archive again.
            case .basemapFile: "\(source.source.rawValue)-\(source.file.map { Self.fileStamp($0.path) } ?? "none")"
            }
        return "\(area.uuid.lowercasedText)-\(maker).pmtiles"
    }

    /// The archive's file, made first when missing.
    func archive(of area: MapArea, from source: MapAreaTileSource, now: Date) async throws -> URL {
        let name = fileName(area, source)
        let file = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: file.path) { return file }
        let task = inFlight.withLockedValue { running -> Task<URL, any Error> in
            if let existing = running[name] { return existing }
            let started = Task { [directory] in
                let tiles = try await source.tiles(of: area.plan, now: now)
                let data = try await source.cpuWork.offloaded {
                    PMTiles.archive(
                        of: tiles, type: source.tileType, box: area.plan.box,
                        metadata: [
                            "name": area.plan.name, "attribution": Self.attribution(source.source),
                            "locify:tile_path": source.tilePath,
                        ])
                }
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                // Written whole, then renamed: a download never reads half an archive.
                try data.write(to: file, options: .atomic)
                return file
            }
            running[name] = started
            return started
        }
        defer { _ = inFlight.withLockedValue { $0.removeValue(forKey: name) } }
        return try await task.value
    }

    /// Removes every archive of the area.
    func remove(_ area: MapArea) {
        let prefix = area.uuid.lowercasedText + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    static func attribution(_ source: MapTileSource) -> String {
        switch source {
        case .basemap: "Natural Earth; GeoNames (CC BY 4.0)"
        case .tileServer, .basemapFile: "© OpenStreetMap contributors"
        }
    }

    /// The file's size and modification time, which change with its content.
    static func fileStamp(_ path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        let modified = Int((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        return "\(size)-\(modified)"
    }
}
