import Foundation
import LocifyCore
import NIOCore
import NIOPosix
import SQLiteNIO
import Vapor

/// A raster basemap the administrator gives as one file (`LOCIFY_BASEMAP_FILE`), e.g. a regional extract:
/// the map's tiles come from it online, and saved areas take theirs from it when the tile server's policy
/// does not allow offline download.
protocol RasterBasemapFile: Sendable {
    var path: String { get }
    /// `image/png`, `image/jpeg`, `image/webp` or `image/avif`.
    var contentType: String { get }
    var tileType: PMTiles.TileType { get }
    /// The tile's bytes, nil when the file does not hold it.
    func bytes(of tile: Tile) async throws -> Data?
    func close() async
}

/// Why a file cannot be the basemap; the server does not start with it.
struct BasemapFileFailure: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "LOCIFY_BASEMAP_FILE=\(path) cannot be used: \(reason)." }
}

/// Opens the file `LOCIFY_BASEMAP_FILE` names, by its extension.
func openBasemapFile(path: String, threadPool: NIOThreadPool, on eventLoop: any EventLoop) async throws
    -> any RasterBasemapFile
{
    guard FileManager.default.isReadableFile(atPath: path) else {
        throw BasemapFileFailure(path: path, reason: "there is no readable file there")
    }
    if path.lowercased().hasSuffix(".pmtiles") {
        return try await PMTilesBasemap.open(path: path, threadPool: threadPool)
    }
    return try await MBTilesBasemap.open(path: path, threadPool: threadPool, on: eventLoop)
}

/// An MBTiles file: one read-only SQLite connection, on the blocking pool.
final class MBTilesBasemap: RasterBasemapFile {
    let path: String
    /// `image/png`, `image/jpeg` or `image/webp`, from the file's `format`.
    let contentType: String
    let tileType: PMTiles.TileType
    private let connection: SQLiteConnection

    private init(path: String, connection: SQLiteConnection, format: String) throws {
        self.path = path
        self.connection = connection
        switch format {
        case "png": (contentType, tileType) = ("image/png", .png)
        case "jpg", "jpeg": (contentType, tileType) = ("image/jpeg", .jpeg)
        case "webp": (contentType, tileType) = ("image/webp", .webp)
        default:
            throw BasemapFileFailure(
                path: path,
                reason:
                    "its format is \(format.isEmpty ? "not given" : format), not png, jpg or webp (vector MBTiles are not drawn)"
            )
        }
    }

    static func open(path: String, threadPool: NIOThreadPool, on eventLoop: any EventLoop) async throws
        -> MBTilesBasemap
    {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, on: eventLoop)
        } catch {
            throw BasemapFileFailure(path: path, reason: "it is not an SQLite database (\(error))")
        }
        do {
            let format = try await metadata("format", on: connection)
            _ = try await connection.query("SELECT 1 FROM tiles LIMIT 1")
            return try MBTilesBasemap(path: path, connection: connection, format: format?.lowercased() ?? "")
        } catch let failure as BasemapFileFailure {
            try? await connection.close()
            throw failure
        } catch {
            try? await connection.close()
            throw BasemapFileFailure(
                path: path, reason: "it is not an MBTiles file: it lacks the metadata or tiles table (\(error))")
        }
    }

    private static func metadata(_ name: String, on connection: SQLiteConnection) async throws -> String? {
        let rows = try await connection.query("SELECT value FROM metadata WHERE name = ?", [.text(name)])
        return rows.first?.column("value")?.string
    }

    /// The tile's bytes, nil when the file does not hold it. MBTiles counts rows from the south (TMS).
    func bytes(of tile: Tile) async throws -> Data? {
        let row = (1 << tile.zoom) - 1 - tile.y
        let rows = try await connection.query(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
            [.integer(tile.zoom), .integer(tile.x), .integer(row)])
        guard let blob = rows.first?.column("tile_data")?.blob else { return nil }
        return Data(buffer: blob)
    }

    func close() async {
        try? await connection.close()
    }
}

/// A PMTiles archive (v3, raster tiles stored as they are), read a range at a time with `pread` on the
/// blocking pool: a regional extract of gigabytes never sits in memory.
final class PMTilesBasemap: RasterBasemapFile {
    let path: String
    let contentType: String
    let tileType: PMTiles.TileType
    private let descriptor: Int32
    private let archive: PMTiles.Archive
    private let threadPool: NIOThreadPool

    private init(path: String, descriptor: Int32, archive: PMTiles.Archive, threadPool: NIOThreadPool) throws {
        self.path = path
        self.descriptor = descriptor
        self.archive = archive
        self.threadPool = threadPool
        tileType = archive.tileType
        switch archive.tileType {
        case .png: contentType = "image/png"
        case .jpeg: contentType = "image/jpeg"
        case .webp: contentType = "image/webp"
        case .avif: contentType = "image/avif"
        case .vector, .unknown:
            throw BasemapFileFailure(
                path: path, reason: "its tiles are not raster images (vector PMTiles are not drawn)")
        }
        guard !archive.tilesCompressed else {
            throw BasemapFileFailure(
                path: path, reason: "its tiles are stored compressed (raster tiles are read as stored)")
        }
    }

    static func open(path: String, threadPool: NIOThreadPool) async throws -> PMTilesBasemap {
        let descriptor = Glibc.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BasemapFileFailure(path: path, reason: "it cannot be opened") }
        let size = Int(lseek(descriptor, 0, SEEK_END))
        do {
            let archive = try await threadPool.runIfActive {
                try PMTiles.Archive(size: size) { range in try Self.read(range, from: descriptor) }
            }
            return try PMTilesBasemap(path: path, descriptor: descriptor, archive: archive, threadPool: threadPool)
        } catch let failure as PMTiles.ReadFailure {
            Glibc.close(descriptor)
            throw BasemapFileFailure(path: path, reason: "it is not a PMTiles archive this server reads (\(failure))")
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    private static func read(_ range: Range<Int>, from descriptor: Int32) throws -> Data {
        var data = Data(count: range.count)
        let read = data.withUnsafeMutableBytes { buffer in
            pread(descriptor, buffer.baseAddress, range.count, off_t(range.lowerBound))
        }
        guard read == range.count else { throw BasemapFileFailure(path: "", reason: "a read fell short") }
        return data
    }

    func bytes(of tile: Tile) async throws -> Data? {
        try await threadPool.runIfActive { [archive] in try archive.bytes(of: tile) }
    }

    func close() async {
        Glibc.close(descriptor)
    }
}

/// Closes the basemap file's connection when the application stops.
struct BasemapFileLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.basemapFile?.close()
    }
}

extension Application {
    private struct BasemapFileKey: StorageKey {
        typealias Value = any RasterBasemapFile
    }

    /// The administrator's raster basemap, when `LOCIFY_BASEMAP_FILE` names one.
    var basemapFile: (any RasterBasemapFile)? {
        get { storage[BasemapFileKey.self] }
        set { storage[BasemapFileKey.self] = newValue }
    }
}
