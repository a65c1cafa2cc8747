import Foundation
import LocifyCore
import NIOCore
import NIOPosix
import SQLiteNIO
import Vapor

/// A raster basemap the administrator gives as one MBTiles file (`LOCIFY_BASEMAP_FILE`), e.g. a regional
/// extract: the map's tiles come from it online, and saved areas take theirs from it when the tile
/// server's policy does not allow offline download. Read only; one connection, on the blocking pool.
final class MBTilesBasemap: Sendable {
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
            throw Failure(
                path: path,
                reason:
                    "its format is \(format.isEmpty ? "not given" : format), not png, jpg or webp (vector MBTiles are not drawn)"
            )
        }
    }

    /// Why the file cannot be the basemap; the server does not start with it.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "LOCIFY_BASEMAP_FILE=\(path) cannot be used: \(reason)." }
    }

    static func open(path: String, threadPool: NIOThreadPool, on eventLoop: any EventLoop) async throws
        -> MBTilesBasemap
    {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw Failure(path: path, reason: "there is no readable file there")
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, on: eventLoop)
        } catch {
            throw Failure(path: path, reason: "it is not an SQLite database (\(error))")
        }
        do {
            let format = try await metadata("format", on: connection)
            _ = try await connection.query("SELECT 1 FROM tiles LIMIT 1")
            return try MBTilesBasemap(path: path, connection: connection, format: format?.lowercased() ?? "")
        } catch let failure as Failure {
            try? await connection.close()
            throw failure
        } catch {
            try? await connection.close()
            throw Failure(
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

/// Closes the basemap file's connection when the application stops.
struct BasemapFileLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.basemapFile?.close()
    }
}

extension Application {
    private struct BasemapFileKey: StorageKey {
        typealias Value = MBTilesBasemap
    }

    /// The administrator's raster basemap, when `LOCIFY_BASEMAP_FILE` names one.
    var basemapFile: MBTilesBasemap? {
        get { storage[BasemapFileKey.self] }
        set { storage[BasemapFileKey.self] = newValue }
    }
}
