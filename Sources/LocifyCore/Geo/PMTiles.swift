import Foundation

/// PMTiles version 3 (protomaps.com's single-file tile archive, read by MapLibre, QGIS and the pmtiles
/// tools): a 127-byte header, a root directory in the first 16 KiB, metadata, leaf directories, then the
/// tiles, each directory listing tiles by their Hilbert-curve id. The directories are gzip-framed
/// without compressing (some readers always gunzip them) and the tiles stored as they are: HTTP
/// compression shrinks the whole file on the way.
public enum PMTiles {
    public enum TileType: UInt8, Sendable {
        case unknown = 0
        case vector = 1
        case png = 2
        case jpeg = 3
        case webp = 4
        case avif = 5
    }

    static let headerLength = 127
    /// The header and the root directory must fit here, so one read of it finds any tile's directory.
    static let firstReadLength = 16_384
    private static let uncompressed: UInt8 = 1
    private static let gzip: UInt8 = 2

    /// The tile's id: the tiles of every shallower zoom, then its place on the zoom's Hilbert curve.
    public static func tileID(_ tile: Tile) -> UInt64 {
        var id = zoomBase(tile.zoom)
        var x = UInt64(tile.x)
        var y = UInt64(tile.y)
        let size = UInt64(1) << UInt64(tile.zoom)
        var step = size / 2
        while step > 0 {
            let rx: UInt64 = (x & step) > 0 ? 1 : 0
            let ry: UInt64 = (y & step) > 0 ? 1 : 0
            id += step * step * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = size - 1 - x
                    y = size - 1 - y
                }
                swap(&x, &y)
            }
            step /= 2
        }
        return id
    }

    /// The tile of an id; nil beyond zoom 30.
    public static func tile(id: UInt64) -> Tile? {
        for zoom in 0...30 {
            let base = zoomBase(zoom)
            let count = UInt64(1) << UInt64(2 * zoom)
            guard id < base + count else { continue }
            var position = id - base
            var x: UInt64 = 0
            var y: UInt64 = 0
            var step: UInt64 = 1
            let size = UInt64(1) << UInt64(zoom)
            while step < size {
                let rx = 1 & (position / 2)
                let ry = 1 & (position ^ rx)
                if ry == 0 {
                    if rx == 1 {
                        x = step - 1 - x
                        y = step - 1 - y
                    }
                    swap(&x, &y)
                }
                x += step * rx
                y += step * ry
                position /= 4
                step *= 2
            }
            return Tile(zoom: zoom, x: Int(x), y: Int(y))
        }
        return nil
    }

    private static func zoomBase(_ zoom: Int) -> UInt64 {
        ((UInt64(1) << UInt64(2 * zoom)) - 1) / 3
    }

    struct Entry: Equatable, Sendable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt64
        /// How many consecutive ids share these bytes; 0 for an entry pointing at a leaf directory.
        var runLength: UInt64
    }

    /// The archive of `tiles` (each tile once), with the box and zooms it covers, and `metadata` as its
    /// JSON metadata. Identical tiles (the sea, an empty field) are stored once.
    public static func archive(
        of tiles: [(tile: Tile, bytes: Data)], type: TileType, box: MapBox, metadata: [String: String] = [:]
    ) -> Data {
        let sorted = tiles.map { (id: tileID($0.tile), bytes: $0.bytes) }.sorted { $0.id < $1.id }
        var tileData = Data()
        var offsets: [Data: UInt64] = [:]
        var entries: [Entry] = []
        for (id, bytes) in sorted {
            if let last = entries.last, last.tileID + last.runLength == id, offsets[bytes] == last.offset,
                last.length == UInt64(bytes.count)
            {
                entries[entries.count - 1].runLength += 1
                continue
            }
            let offset: UInt64
            if let stored = offsets[bytes] {
                offset = stored
            } else {
                offset = UInt64(tileData.count)
                offsets[bytes] = offset
                tileData.append(bytes)
            }
            entries.append(Entry(tileID: id, offset: offset, length: UInt64(bytes.count), runLength: 1))
        }
        let (root, leaves) = directories(entries)
        var metadataObject = metadata
        metadataObject["format"] = metadataObject["format"] ?? formatName(type)
        // Compressed as the directories are: the format asks it of the metadata too.
        let metadataData = Gzip.stored(
            (try? JSONSerialization.data(withJSONObject: metadataObject, options: [.sortedKeys])) ?? Data("{}".utf8))

        let rootOffset = UInt64(headerLength)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(metadataData.count)
        let tilesOffset = leavesOffset + UInt64(leaves.count)
        let zooms = tiles.map(\.tile.zoom)
        var header = Data()
        header.append(contentsOf: Array("PMTiles".utf8))
        header.append(3)
        for value in [
            rootOffset, UInt64(root.count), metadataOffset, UInt64(metadataData.count), leavesOffset,
            UInt64(leaves.count), tilesOffset, UInt64(tileData.count), UInt64(sorted.count), UInt64(entries.count),
            UInt64(offsets.count),
        ] {
            header.appendLittleEndian(value)
        }
        header.append(1)  // clustered: tiles in id order
        header.append(gzip)
        header.append(uncompressed)
        header.append(type.rawValue)
        let minimumZoom = zooms.min() ?? 0
        let maximumZoom = zooms.max() ?? 0
        header.append(UInt8(minimumZoom))
        header.append(UInt8(maximumZoom))
        for degrees in [box.west, box.south, box.east, box.north] {
            header.appendLittleEndian(UInt32(bitPattern: Int32((degrees * 10_000_000).rounded())))
        }
        header.append(UInt8((minimumZoom + maximumZoom) / 2))
        for degrees in [box.center.longitude, box.center.latitude] {
            header.appendLittleEndian(UInt32(bitPattern: Int32((degrees * 10_000_000).rounded())))
        }
        return header + root + metadataData + leaves + tileData
    }

    private static func formatName(_ type: TileType) -> String {
        switch type {
        case .unknown: "svg"
        case .vector: "pbf"
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .avif: "avif"
        }
    }

    /// The root directory, and the leaves when the root alone would not fit the first 16 KiB.
    private static func directories(_ entries: [Entry]) -> (root: Data, leaves: Data) {
        let whole = serialize(entries)
        if whole.count + headerLength <= firstReadLength { return (whole, Data()) }
        var leafSize = 4_096
        while true {
            var leaves = Data()
            var rootEntries: [Entry] = []
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leaf = serialize(Array(entries[start..<min(start + leafSize, entries.count)]))
                rootEntries.append(
                    Entry(
                        tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt64(leaf.count),
                        runLength: 0))
                leaves.append(leaf)
            }
            let root = serialize(rootEntries)
            if root.count + headerLength <= firstReadLength { return (root, leaves) }
            leafSize *= 2
        }
    }

    private static func serialize(_ entries: [Entry]) -> Data {
        Gzip.stored(encoded(entries))
    }

    private static func encoded(_ entries: [Entry]) -> Data {
        var data = Data()
        data.appendVarint(UInt64(entries.count))
        var lastID: UInt64 = 0
        for entry in entries {
            data.appendVarint(entry.tileID - lastID)
            lastID = entry.tileID
        }
        for entry in entries { data.appendVarint(entry.runLength) }
        for entry in entries { data.appendVarint(entry.length) }
        for (index, entry) in entries.enumerated() {
            if index > 0, entry.offset == entries[index - 1].offset + entries[index - 1].length {
                data.appendVarint(0)
            } else {
                data.appendVarint(entry.offset + 1)
            }
        }
        return data
    }

    /// Why bytes are no archive this reader can read.
    public struct ReadFailure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// A PMTiles archive, in memory or read a range at a time (a file on disk); directories uncompressed
    /// or gzipped, tiles as stored.
    public struct Archive: Sendable {
        public let size: Int
        public let tileType: TileType
        /// Whether each tile is stored compressed (gzip and others), which the reader hands on as it is.
        public let tilesCompressed: Bool
        public let minimumZoom: Int
        public let maximumZoom: Int
        public let box: MapBox
        /// The root directory, read once: every tile's look-up starts there.
        let rootEntries: [Entry]
        let directoriesGzipped: Bool
        let leaves: Int
        let tiles: Int
        private let read: @Sendable (Range<Int>) throws -> Data

        public init(_ data: Data) throws(ReadFailure) {
            // Offsets count from the first byte.
            let whole = data.startIndex == 0 ? data : Data(data)
            try self.init(size: whole.count) { whole.subdata(in: $0) }
        }

        /// The archive of `size` bytes whose ranges `read` gives.
        public init(size: Int, reading read: @escaping @Sendable (Range<Int>) throws -> Data) throws(ReadFailure) {
            let header: [UInt8]
            do {
                header = size >= headerLength ? [UInt8](try read(0..<headerLength)) : []
            } catch {
                throw ReadFailure(description: "its header cannot be read (\(error))")
            }
            let bytes = header
            guard bytes.count == headerLength, Array(bytes[0..<7]) == Array("PMTiles".utf8) else {
                throw ReadFailure(description: "not a PMTiles archive")
            }
            guard bytes[7] == 3 else { throw ReadFailure(description: "PMTiles version \(bytes[7]) (3 is read)") }
            guard bytes[97] == uncompressed || bytes[97] == gzip else {
                throw ReadFailure(description: "directories compressed with brotli or zstd (gzip is read)")
            }
            directoriesGzipped = bytes[97] == gzip
            tilesCompressed = bytes[98] > uncompressed
            func number(_ at: Int) -> Int {
                Int(clamping: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << UInt64(8 * $1) })
            }
            func degrees(_ at: Int) -> Double {
                let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) }
                return Double(Int32(bitPattern: raw)) / 10_000_000
            }
            self.size = size
            self.read = read
            let root = number(8)..<(number(8) + number(16))
            leaves = number(40)
            tiles = number(56)
            tileType = TileType(rawValue: bytes[99]) ?? .unknown
            minimumZoom = Int(bytes[100])
            maximumZoom = Int(bytes[101])
            box = MapBox(south: degrees(106), west: degrees(102), north: degrees(114), east: degrees(110))
            guard root.upperBound <= size, tiles <= size else {
                throw ReadFailure(description: "the archive is cut short")
            }
            let storedRoot: Data
            do {
                storedRoot = try read(root)
            } catch {
                throw ReadFailure(description: "its root directory cannot be read (\(error))")
            }
            rootEntries = try Self.entries(in: storedRoot, gzipped: directoriesGzipped)
        }

        private func bytes(in range: Range<Int>) throws(ReadFailure) -> Data {
            guard range.lowerBound >= 0, range.upperBound <= size else {
                throw ReadFailure(description: "a range lies outside the archive")
            }
            do {
                return try read(range)
            } catch {
                throw ReadFailure(description: "the archive cannot be read (\(error))")
            }
        }

        /// The bytes of `tile`, nil when the archive does not hold it.
        public func bytes(of tile: Tile) throws(ReadFailure) -> Data? {
            let id = tileID(tile)
            var entries = rootEntries
            for _ in 0..<4 {
                // The last entry at or before the id: entries are sorted by id.
                var low = 0
                var high = entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
                }
                guard low > 0 else { return nil }
                let entry = entries[low - 1]
                if entry.runLength == 0 {
                    let start = leaves + Int(entry.offset)
                    entries = try self.entries(start..<(start + Int(entry.length)))
                    continue
                }
                guard id < entry.tileID + entry.runLength else { return nil }
                let start = tiles + Int(entry.offset)
                return try bytes(in: start..<(start + Int(entry.length)))
            }
            return nil
        }

        /// Every tile the archive holds.
        public func allTiles() throws(ReadFailure) -> [Tile] {
            var found: [Tile] = []
            func walk(_ directory: [Entry]) throws(ReadFailure) {
                for entry in directory {
                    if entry.runLength == 0 {
                        let start = leaves + Int(entry.offset)
                        try walk(try entries(start..<(start + Int(entry.length))))
                    } else {
                        found += (0..<entry.runLength).compactMap { tile(id: entry.tileID + $0) }
                    }
                }
            }
            try walk(rootEntries)
            return found
        }

        func entries(_ range: Range<Int>) throws(ReadFailure) -> [Entry] {
            try Self.entries(in: try bytes(in: range), gzipped: directoriesGzipped)
        }

        static func entries(in stored: Data, gzipped: Bool) throws(ReadFailure) -> [Entry] {
            var directory = stored
            if gzipped {
                do {
                    directory = try Gzip.decompressed(directory)
                } catch {
                    throw ReadFailure(description: "a directory could not be read: \(error)")
                }
            }
            var reader = VarintReader(bytes: [UInt8](directory))
            let count = Int(clamping: try reader.next())
            guard count <= directory.count else { throw ReadFailure(description: "a directory is damaged") }
            var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
            var lastID: UInt64 = 0
            for index in 0..<count {
                lastID += try reader.next()
                entries[index].tileID = lastID
            }
            for index in 0..<count { entries[index].runLength = try reader.next() }
            for index in 0..<count { entries[index].length = try reader.next() }
            for index in 0..<count {
                let value = try reader.next()
                if value == 0, index > 0 {
                    entries[index].offset = entries[index - 1].offset + entries[index - 1].length
                } else {
                    guard value > 0 else { throw ReadFailure(description: "a directory is damaged") }
                    entries[index].offset = value - 1
                }
            }
            return entries
        }
    }

    struct VarintReader {
        let bytes: [UInt8]
        var position = 0

        mutating func next() throws(ReadFailure) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count, shift < 64 {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            throw ReadFailure(description: "a directory is cut short")
        }
    }
}

extension Data {
    fileprivate mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        append(UInt8(rest))
    }

    fileprivate mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
