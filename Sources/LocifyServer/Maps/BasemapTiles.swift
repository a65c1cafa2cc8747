import Foundation
import LocifyCore
import NIOConcurrencyHelpers

/// Drawn basemap tiles kept in memory: a tile is drawn once per palette and served from here after,
/// within a budget of bytes; the oldest drawn go first when it is full.
final class BasemapTiles: Sendable {
    struct Key: Hashable, Sendable {
        let tile: Tile
        let isDark: Bool
    }

    private struct Store {
        var svgByKey: [Key: String] = [:]
        var order: [Key] = []
        var bytes = 0
    }

    let budget: Int
    private let store = NIOLockedValueBox(Store())

    init(budget: Int = 64 * 1024 * 1024) {
        self.budget = budget
    }

    func cached(_ key: Key) -> String? {
        store.withLockedValue { $0.svgByKey[key] }
    }

    func keep(_ svg: String, for key: Key) {
        store.withLockedValue { store in
            guard store.svgByKey[key] == nil else { return }
            store.svgByKey[key] = svg
            store.order.append(key)
            store.bytes += svg.utf8.count
            while store.bytes > budget, !store.order.isEmpty {
                let oldest = store.order.removeFirst()
                store.bytes -= store.svgByKey.removeValue(forKey: oldest)?.utf8.count ?? 0
            }
        }
    }

    var count: Int { store.withLockedValue { $0.svgByKey.count } }
}
