import Foundation

/// One populated place of the GeoNames gazetteer.
public struct GazetteerPlace: Sendable, Equatable {
    public let geonameID: Int
    public let name: String
    public let coordinate: Coordinate
    public let countryCode: String
    /// GeoNames' first-level area code ("IL" in the US, "ZH" in Switzerland, "11" for Île-de-France).
    public let admin1: String
    public let population: Int
    public let timeZone: String
}

/// The bundled GeoNames places (population ≥ 1000), indexed by folded name and latin alternates, and
/// by a 1° grid for nearest-place look-ups.
///
/// Kept in columns rather than as an array of `GazetteerPlace`: about 170,000 places with five strings
/// each, a dictionary of 400,000 name keys and 64,800 grid arrays held about 75 MB (440 bytes a place),
/// most of it allocation headers. Here each place is a few fixed-width numbers, every name sits in one
/// byte array, the name index is an open-addressing table over those bytes, and the name and grid
/// indexes are each one flat array of place numbers with start offsets. A `GazetteerPlace` is made when
/// asked for.
public final class Gazetteer: Sendable {
    // One entry a place, in the file's order (most populous first).
    private let geonameIDs: [UInt32]
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let populations: [UInt32]
    /// Place i's name is `names[nameEnds[i - 1]..<nameEnds[i]]` (from 0 for the first).
    private let nameEnds: [UInt32]
    private let names: [UInt8]
    /// Indexes into `labels`: country code, first-level area, time zone (a few thousand distinct values).
    private let countryLabels: [UInt16]
    private let admin1Labels: [UInt16]
    private let timeZoneLabels: [UInt16]
    private let labels: [String]
    private let byName: NameIndex
    /// Cell c's places are `gridPlaces[gridStarts[c]..<gridStarts[c + 1]]`.
    private let gridStarts: [UInt32]
    private let gridPlaces: [Int32]

    static let gridColumns = 360
    static let gridRows = 180

    /// Parses the TSV (header line first, columns as data/README.md lists them).
    public init(tsv data: Data) {
        var geonameIDs: [UInt32] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var populations: [UInt32] = []
        var nameEnds: [UInt32] = []
        var names: [UInt8] = []
        var countryLabels: [UInt16] = []
        var admin1Labels: [UInt16] = []
        var timeZoneLabels: [UInt16] = []
        var labels: [String] = []
        var labelNumbers: [String: UInt16] = [:]
        func label(_ text: String) -> UInt16 {
            if let known = labelNumbers[text] { return known }
            let number = UInt16(clamping: labels.count)
            labels.append(text)
            labelNumbers[text] = number
            return number
        }
        // The bundled file has about one key for every 40 of its bytes (a name and a latin alternate or two,
        // shared between places); more keys grow the table.
        var nameIndex = NameIndex.Builder(expectedKeys: data.count / 40)
        var cells: [Int32] = []
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var lineStart = 0
            var isHeader = true
            var columns: [Range<Int>] = []
            columns.reserveCapacity(9)
            func text(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            func integer(_ range: Range<Int>) -> Int {
                var value = 0
                for index in range { value = value * 10 + Int(bytes[index] &- 48) }
                return value
            }
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 10 { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                if isHeader {
                    isHeader = false
                    continue
                }
                columns.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                for index in lineStart..<lineEnd where bytes[index] == 9 {
                    columns.append(fieldStart..<index)
                    fieldStart = index + 1
                }
                columns.append(fieldStart..<lineEnd)
                guard columns.count >= 8,
                    let latitude = Double(text(columns[2])), let longitude = Double(text(columns[3]))
                else { continue }
                let index = Int32(geonameIDs.count)
                geonameIDs.append(UInt32(clamping: integer(columns[0])))
                latitudes.append(latitude)
                longitudes.append(longitude)
                populations.append(UInt32(clamping: integer(columns[6])))
                names.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[columns[1]]))
                nameEnds.append(UInt32(names.count))
                countryLabels.append(label(text(columns[4])))
                admin1Labels.append(label(text(columns[5])))
                timeZoneLabels.append(label(text(columns[7])))
                let name = text(columns[1])
                var keys = [Self.keyBytes(name)]
                if columns.count > 8, !columns[8].isEmpty {
                    for alternate in text(columns[8]).split(separator: "|") {
                        let key = Self.keyBytes(alternate)
                        if !keys.contains(key) { keys.append(key) }
                    }
                }
                for key in keys where !key.isEmpty { nameIndex.add(key, place: index) }
                cells.append(Int32(Self.cell(latitude: latitude, longitude: longitude)))
            }
        }
        // Each column kept at its length: the spare capacity left by growing is let go.
        self.geonameIDs = geonameIDs.fitted()
        self.latitudes = latitudes.fitted()
        self.longitudes = longitudes.fitted()
        self.populations = populations.fitted()
        self.nameEnds = nameEnds.fitted()
        self.names = names.fitted()
        self.countryLabels = countryLabels.fitted()
        self.admin1Labels = admin1Labels.fitted()
        self.timeZoneLabels = timeZoneLabels.fitted()
        self.labels = labels
        byName = nameIndex.build()
        (gridStarts, gridPlaces) = Self.grouped(cells, groups: Self.gridColumns * Self.gridRows)
    }

    /// Every place, made on demand, most populous first.
    public var places: Places { Places(gazetteer: self) }

    public struct Places: RandomAccessCollection, Sendable {
        let gazetteer: Gazetteer
        public var startIndex: Int { 0 }
        public var endIndex: Int { gazetteer.geonameIDs.count }
        public subscript(position: Int) -> GazetteerPlace { gazetteer.place(position) }
    }

    func place(_ index: Int) -> GazetteerPlace {
        let nameStart = index == 0 ? 0 : Int(nameEnds[index - 1])
        return GazetteerPlace(
            geonameID: Int(geonameIDs[index]),
            name: String(decoding: names[nameStart..<Int(nameEnds[index])], as: UTF8.self),
            coordinate: coordinate(index), countryCode: labels[Int(countryLabels[index])],
            admin1: labels[Int(admin1Labels[index])], population: Int(populations[index]),
            timeZone: labels[Int(timeZoneLabels[index])])
    }

    func coordinate(_ index: Int) -> Coordinate {
        Coordinate(latitude: latitudes[index], longitude: longitudes[index])
    }

    func population(_ index: Int) -> Int { Int(populations[index]) }

    /// The bundled gazetteer, read on first use (about 170,000 places).
    public static var bundled: Gazetteer {
        BundledGazetteer.shared.value
    }

    /// Places called `name` (case, accents and punctuation ignored; latin alternates included), most
    /// populous first.
    public func places(named name: String) -> [GazetteerPlace] {
        byName.places(for: Self.keyBytes(name)).map { place(Int($0)) }
    }

    /// The nearest place to `coordinate` within `maximumDistance` metres, by walking grid rings outward.
    public func nearest(to coordinate: Coordinate, within maximumDistance: Double = 50_000) -> GazetteerPlace? {
        let row = Self.row(coordinate.latitude)
        let column = Self.column(coordinate.longitude)
        var best: (index: Int32, distance: Double)?
        // Cells of ring r are at least (r − 1)° away. A degree of longitude shrinks towards the poles,
        // so the stopping bound uses the most poleward latitude the ring reaches.
        let kilometresPerDegree = 111.2
        // Enough rings to reach `maximumDistance` along a parallel too: at 85° a degree of longitude
        // is under 10 km, so 50 km spans several cells.
        let latitudeSpan = maximumDistance / 1000 / kilometresPerDegree
        let polewardReach = Geo.radians(min(abs(coordinate.latitude) + latitudeSpan, 89.9))
        let degreesToCover = maximumDistance / 1000 / (kilometresPerDegree * cos(polewardReach))
        let maximumRings = min(Self.gridColumns / 2, Int(degreesToCover.rounded(.up)) + 1)
        for ring in 0...maximumRings {
            // No clamp on the cosine: near a pole the bound falls to zero and the walk runs to its end,
            // which is slower but never misses a nearer place.
            let poleward = Geo.radians(min(abs(coordinate.latitude) + Double(ring), 90))
            if let best, Double(ring - 1) * kilometresPerDegree * 1000 * cos(poleward) > best.distance {
                break
            }
            for cellRow in (row - ring)...(row + ring) where (0..<Self.gridRows).contains(cellRow) {
                let columnSpan =
                    ring == 0
                    ? [column]
                    : ((cellRow == row - ring || cellRow == row + ring)
                        ? Array((column - ring)...(column + ring)) : [column - ring, column + ring])
                for rawColumn in columnSpan {
                    let wrapped = ((rawColumn % Self.gridColumns) + Self.gridColumns) % Self.gridColumns
                    for index in cell(row: cellRow, column: wrapped) {
                        let distance = Geo.distance(coordinate, self.coordinate(Int(index)))
                        if distance <= maximumDistance, distance < (best?.distance ?? .infinity) {
                            best = (index, distance)
                        }
                    }
                }
            }
        }
        return best.map { place(Int($0.index)) }
    }

    /// Up to `limit` places within `maximumDistance` metres of `coordinate`, nearest first: the 1° cells the
    /// circle touches are read, each place's distance worked out once.
    public func places(near coordinate: Coordinate, within maximumDistance: Double = 30_000, limit: Int = 8)
        -> [(place: GazetteerPlace, meters: Double)]
    {
        guard limit > 0 else { return [] }
        let latitudeSpan = maximumDistance / 111_200
        let poleward = Geo.radians(min(abs(coordinate.latitude) + latitudeSpan, 89.9))
        let longitudeSpan = min(180, maximumDistance / (111_200 * cos(poleward)))
        var found: [(index: Int32, meters: Double)] = []
        let rows = Self.row(coordinate.latitude - latitudeSpan)...Self.row(coordinate.latitude + latitudeSpan)
        let firstColumn = Int((coordinate.longitude - longitudeSpan + 180).rounded(.down))
        let lastColumn = Int((coordinate.longitude + longitudeSpan + 180).rounded(.down))
        let columns = Set(
            (firstColumn...lastColumn).map { (($0 % Self.gridColumns) + Self.gridColumns) % Self.gridColumns })
        for row in rows {
            for column in columns {
                for index in cell(row: row, column: column) {
                    let meters = Geo.distance(coordinate, self.coordinate(Int(index)))
                    if meters <= maximumDistance { found.append((index, meters)) }
                }
            }
        }
        return found.sorted { $0.meters < $1.meters }.prefix(limit).map { (place(Int($0.index)), $0.meters) }
    }

    func cell(row: Int, column: Int) -> ArraySlice<Int32> {
        let cell = row * Self.gridColumns + column
        return gridPlaces[Int(gridStarts[cell])..<Int(gridStarts[cell + 1])]
    }

    static func row(_ latitude: Double) -> Int { min(gridRows - 1, max(0, Int((latitude + 90).rounded(.down)))) }
    static func column(_ longitude: Double) -> Int {
        min(gridColumns - 1, max(0, Int((longitude + 180).rounded(.down))))
    }
    static func cell(latitude: Double, longitude: Double) -> Int { row(latitude) * gridColumns + column(longitude) }

    /// `members[i]` is the group of item i; returns where each group starts in the items listed group by
    /// group (one more start than groups) and those items, each group in the items' order.
    static func grouped(_ members: [Int32], groups: Int) -> (starts: [UInt32], items: [Int32]) {
        var starts = [UInt32](repeating: 0, count: groups + 1)
        for group in members { starts[Int(group) + 1] += 1 }
        for group in 0..<groups { starts[group + 1] += starts[group] }
        var next = starts
        var items = [Int32](repeating: 0, count: members.count)
        for (item, group) in members.enumerated() {
            items[Int(next[Int(group)])] = Int32(item)
            next[Int(group)] += 1
        }
        return (starts, items)
    }

    /// The index key of a name: ASCII, lower case, punctuation as single spaces ("Saint-Étienne" → "saint etienne").
    static func key(_ name: String) -> String {
        String(decoding: keyBytes(name), as: UTF8.self)
    }

    static func keyBytes(_ name: some StringProtocol) -> [UInt8] {
        let source = name.utf8.allSatisfy { $0 < 128 } ? String(name) : TextFolding.ascii(String(name))
        var output: [UInt8] = []
        output.reserveCapacity(source.utf8.count)
        var pendingSpace = false
        for byte in source.utf8 {
            let lowered = (65...90).contains(byte) ? byte + 32 : byte
            if (97...122).contains(lowered) || (48...57).contains(lowered) || lowered >= 128 {
                if pendingSpace, !output.isEmpty { output.append(32) }
                pendingSpace = false
                output.append(lowered)
            } else {
                pendingSpace = true
            }
        }
        return output
    }
}

/// Name keys to places, without a `String` or an array per key: the keys' bytes back to back, an
/// open-addressing table of key numbers found by an FNV-1a hash, and each key's places in one flat array.
struct NameIndex: Sendable {
    private let keyBytes: [UInt8]
    /// Key k is `keyBytes[keyEnds[k - 1]..<keyEnds[k]]` (from 0 for the first).
    private let keyEnds: [UInt32]
    /// Key number + 1 in each slot; 0 is empty. A power of two long, at most 70 % full.
    private let slots: [UInt32]
    /// Key k's places are `places[placeStarts[k]..<placeStarts[k + 1]]`, in the order they were added.
    private let placeStarts: [UInt32]
    private let places: [Int32]

    func places(for key: [UInt8]) -> ArraySlice<Int32> {
        guard let number = Self.find(key, slots: slots, keyBytes: keyBytes, keyEnds: keyEnds).number else {
            return []
        }
        return places[Int(placeStarts[number])..<Int(placeStarts[number + 1])]
    }

    static func hash(_ key: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The key's number, or the empty slot where it would go.
    static func find(_ key: [UInt8], slots: [UInt32], keyBytes: [UInt8], keyEnds: [UInt32]) -> (
        number: Int?, slot: Int
    ) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash(key)) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return (nil, slot) }
            let number = Int(entry - 1)
            let start = number == 0 ? 0 : Int(keyEnds[number - 1])
            if keyBytes[start..<Int(keyEnds[number])].elementsEqual(key) { return (number, slot) }
            slot = (slot + 1) & mask
        }
    }

    struct Builder {
        private var keyBytes: [UInt8] = []
        private var keyEnds: [UInt32] = []
        private var slots: [UInt32]
        /// One entry per (key, place) added: the key's number, and the place.
        private var memberKeys: [Int32] = []
        private var memberPlaces: [Int32] = []

        init(expectedKeys: Int) {
            var capacity = 16
            while capacity * 7 < expectedKeys * 10 { capacity <<= 1 }
            slots = [UInt32](repeating: 0, count: capacity)
            keyBytes.reserveCapacity(expectedKeys * 10)
            keyEnds.reserveCapacity(expectedKeys)
            memberKeys.reserveCapacity(expectedKeys)
            memberPlaces.reserveCapacity(expectedKeys)
        }

        mutating func add(_ key: [UInt8], place: Int32) {
            let found = NameIndex.find(key, slots: slots, keyBytes: keyBytes, keyEnds: keyEnds)
            let number: Int
            if let known = found.number {
                number = known
            } else {
                number = keyEnds.count
                keyBytes.append(contentsOf: key)
                keyEnds.append(UInt32(keyBytes.count))
                slots[found.slot] = UInt32(number + 1)
                if keyEnds.count * 10 > slots.count * 7 { grow() }
            }
            memberKeys.append(Int32(number))
            memberPlaces.append(place)
        }

        private mutating func grow() {
            slots = [UInt32](repeating: 0, count: slots.count * 2)
            let mask = slots.count - 1
            for number in 0..<keyEnds.count {
                let start = number == 0 ? 0 : Int(keyEnds[number - 1])
                var slot = Int(truncatingIfNeeded: NameIndex.hash(Array(keyBytes[start..<Int(keyEnds[number])]))) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = UInt32(number + 1)
            }
        }

        func build() -> NameIndex {
            let (starts, order) = Gazetteer.grouped(memberKeys, groups: keyEnds.count)
            return NameIndex(
                keyBytes: keyBytes.fitted(), keyEnds: keyEnds.fitted(), slots: slots, placeStarts: starts,
                places: order.map { memberPlaces[Int($0)] })
        }
    }
}

extension Array {
    /// A copy whose storage holds just its elements, without the spare capacity reserved while it grew.
    func fitted() -> [Element] {
        withUnsafeBufferPointer { Array($0) }
    }
}

/// Loads the bundled gazetteer once, on first use, whichever thread asks first.
final class BundledGazetteer: @unchecked Sendable {
    static let shared = BundledGazetteer()
    private let lock = NSLock()
    private var loaded: Gazetteer?

    var value: Gazetteer {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        guard let data = try? BundledResource.gazetteerTSV() else {
            preconditionFailure("cities1000.tsv is missing from the LocifyCore bundle")
        }
        let gazetteer = Gazetteer(tsv: data)
        loaded = gazetteer
        return gazetteer
    }
}
