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
public final class Gazetteer: Sendable {
    public let places: [GazetteerPlace]
    private let byName: [String: [Int32]]
    private let grid: [[Int32]]

    static let gridColumns = 360
    static let gridRows = 180

    /// Parses the TSV (header line first, columns as data/README.md lists them).
    public init(tsv data: Data) {
        var places: [GazetteerPlace] = []
        places.reserveCapacity(175_000)
        var byName: [String: [Int32]] = [:]
        byName.reserveCapacity(400_000)
        var grid = [[Int32]](repeating: [], count: Self.gridColumns * Self.gridRows)
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
                let index = Int32(places.count)
                let place = GazetteerPlace(
                    geonameID: integer(columns[0]), name: text(columns[1]),
                    coordinate: Coordinate(latitude: latitude, longitude: longitude), countryCode: text(columns[4]),
                    admin1: text(columns[5]), population: integer(columns[6]), timeZone: text(columns[7]))
                places.append(place)
                var keys = [Self.key(place.name)]
                if columns.count > 8, !columns[8].isEmpty {
                    for alternate in text(columns[8]).split(separator: "|") {
                        let key = Self.key(String(alternate))
                        if !keys.contains(key) { keys.append(key) }
                    }
                }
                for key in keys where !key.isEmpty { byName[key, default: []].append(index) }
                grid[Self.cell(latitude: latitude, longitude: longitude)].append(index)
            }
        }
        self.places = places
        self.byName = byName
        self.grid = grid
    }

    /// The bundled gazetteer, read on first use (about 170,000 places).
    public static var bundled: Gazetteer {
        BundledGazetteer.shared.value
    }

    /// Places called `name` (case, accents and punctuation ignored; latin alternates included), most
    /// populous first.
    public func places(named name: String) -> [GazetteerPlace] {
        (byName[Self.key(name)] ?? []).map { places[Int($0)] }
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
                    for index in grid[cellRow * Self.gridColumns + wrapped] {
                        let distance = Geo.distance(coordinate, places[Int(index)].coordinate)
                        if distance <= maximumDistance, distance < (best?.distance ?? .infinity) {
                            best = (index, distance)
                        }
                    }
                }
            }
        }
        return best.map { places[Int($0.index)] }
    }

    func cell(row: Int, column: Int) -> [Int32] { grid[row * Self.gridColumns + column] }

    static func row(_ latitude: Double) -> Int { min(gridRows - 1, max(0, Int((latitude + 90).rounded(.down)))) }
    static func column(_ longitude: Double) -> Int {
        min(gridColumns - 1, max(0, Int((longitude + 180).rounded(.down))))
    }
    static func cell(latitude: Double, longitude: Double) -> Int { row(latitude) * gridColumns + column(longitude) }

    /// The index key of a name: ASCII, lower case, punctuation as single spaces ("Saint-Étienne" → "saint etienne").
    static func key(_ name: String) -> String {
        let source = name.utf8.allSatisfy { $0 < 128 } ? name : TextFolding.ascii(name)
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
        return String(decoding: output, as: UTF8.self)
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
