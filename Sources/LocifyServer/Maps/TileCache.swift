import Foundation
import LocifyCore
import NIOConcurrencyHelpers

/// Raster tiles from the tile server, kept on disk under the data directory for as long as the server
/// allows (at least 7 days, OpenStreetMap's policy), so a tile is fetched once per period however many
/// people look at it. Requests for a tile already being fetched wait for that fetch.
final class TileCache: Sendable {
    struct Entry: Codable, Sendable, Equatable {
        let contentType: String
        let expiresAt: Date
    }

    let directory: URL
    private let inFlight = NIOLockedValueBox<[Tile: Task<(Data, Entry), any Error>]>([:])

    init(directory: URL) {
        self.directory = directory
    }

    private func files(for tile: Tile) -> (image: URL, entry: URL) {
        let folder = directory.appendingPathComponent("\(tile.zoom)/\(tile.x)", isDirectory: true)
        return (folder.appendingPathComponent("\(tile.y).tile"), folder.appendingPathComponent("\(tile.y).json"))
    }

    /// The stored copy, fresh or not.
    func stored(_ tile: Tile) -> (Data, Entry)? {
        let (image, entryFile) = files(for: tile)
        guard let data = try? Data(contentsOf: image), let json = try? Data(contentsOf: entryFile),
            let entry = try? JSONDecoder().decode(Entry.self, from: json)
        else { return nil }
        return (data, entry)
    }

    /// The tile, from disk while fresh, else from `fetch`; when the tile server fails, a stale copy is
    /// better than none.
    func tile(
        _ tile: Tile, now: Date, fetch: @escaping @Sendable (Tile) async throws -> FetchedTile
    ) async throws -> (Data, Entry) {
        let stored = stored(tile)
        if let stored, stored.1.expiresAt > now { return stored }
        let task = inFlight.withLockedValue { running -> Task<(Data, Entry), any Error> in
            if let existing = running[tile] { return existing }
            let started = Task { [self] in
                let fetched = try await fetch(tile)
                let entry = Entry(
                    contentType: fetched.contentType, expiresAt: now.addingTimeInterval(fetched.maximumAge))
                try save(fetched.bytes, entry, for: tile)
                return (fetched.bytes, entry)
            }
            running[tile] = started
            return started
        }
        defer { _ = inFlight.withLockedValue { $0.removeValue(forKey: tile) } }
        do {
            return try await task.value
        } catch {
            if let stored { return stored }
            throw error
        }
    }

    private func save(_ data: Data, _ entry: Entry, for tile: Tile) throws {
        let (image, entryFile) = files(for: tile)
        try FileManager.default.createDirectory(
            at: image.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written whole, then renamed: a reader never sees half a tile.
        try data.write(to: image, options: .atomic)
        try JSONEncoder().encode(entry).write(to: entryFile, options: .atomic)
    }
}
