import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Pictures kept in memory by what they are: stored images by account and SHA-256, initials by letters,
/// colour and size. An entry never goes stale (the same key is always the same bytes), so the cache
/// only bounds its size; when full it starts again rather than track use.
final class PictureCache: Sendable {
    struct Entry: Sendable {
        let body: ByteBuffer
        let contentType: String
    }

    /// Pictures larger than this are sent in parts from the database instead.
    static let largestEntry = 512 * 1024
    static let capacity = 48 * 1024 * 1024

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())

    func entry(_ key: String) -> Entry? {
        state.withLockedValue { $0.entries[key] }
    }

    func keep(_ entry: Entry, for key: String) {
        let size = entry.body.readableBytes
        guard size <= Self.largestEntry else { return }
        state.withLockedValue { state in
            if state.bytes + size > Self.capacity {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if state.entries.updateValue(entry, forKey: key) == nil { state.bytes += size }
        }
    }

    static func storedKey(ownerID: Int, digest: String) -> String { "\(ownerID):\(digest)" }
}

extension Application {
    private struct PictureCacheKey: StorageKey {
        typealias Value = PictureCache
    }

    var pictureCache: PictureCache {
        get { configured(PictureCacheKey.self) }
        set { storage[PictureCacheKey.self] = newValue }
    }
}
