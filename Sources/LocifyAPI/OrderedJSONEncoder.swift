import Foundation
import LocifyCore

/// Encodes JSON with object keys in the order the types encode them. Foundation's encoder keeps
/// objects in a dictionary, so its key order is arbitrary, and Monica's shapes list keys in a fixed
/// order that clients and tests compare against.
///
/// It writes bytes in one pass as the types encode themselves: no intermediate tree, no coding-path
/// arrays per value, and strings copied in runs of bytes that need no escaping. A key encoded twice in
/// one object is written twice (synthesised `Encodable` never does that).
public struct OrderedJSONEncoder: Sendable {
    /// Whether resources that write themselves (`DirectJSONWritable`) may do so; off, everything goes
    /// through `Encodable`, which the tests use to check that both give the same bytes.
    let usesDirectWriters: Bool

    public init() {
        usesDirectWriters = true
    }

    init(usesDirectWriters: Bool) {
        self.usesDirectWriters = usesDirectWriters
    }

    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        Data(try encodedBytes(value))
    }

    /// The JSON as UTF-8 bytes, for callers that copy them into a buffer of their own.
    public func encodedBytes<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let writer = JSONWriter(usesDirectWriters: usesDirectWriters)
        try writer.write(value, depth: 0)
        writer.close(downTo: 0)
        return writer.bytes
    }
}

/// The output and the containers still open in it. Containers are closed lazily: a container is
/// closed when its parent writes its next entry, or when the value that opened it is done.
final class JSONWriter {
    struct OpenContainer {
        let isObject: Bool
        var hasEntries = false
    }

    // One writer serves one encoding on one thread, so the run-time exclusivity checks Swift would make
    // on every append (a third of the encoding time when measured) buy nothing here.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) private(set) var open: [OpenContainer] = []
    /// The keys of the nested values being encoded, kept for error messages only.
    @exclusivity(unchecked) private(set) var keyPath: [any CodingKey] = []

    let usesDirectWriters: Bool

    init(usesDirectWriters: Bool = true) {
        self.usesDirectWriters = usesDirectWriters
        bytes.reserveCapacity(2048)
    }

    /// What the generic path writes for `value`, for constant parts of direct writers.
    static func genericBytes<Value: Encodable>(_ value: Value) -> [UInt8] {
        (try? OrderedJSONEncoder(usesDirectWriters: false).encodedBytes(value)) ?? []
    }

    /// Raw JSON text (keys and punctuation of a direct writer).
    func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    func writeOptional(_ text: String?) {
        if let text { writeString(text) } else { writeNull() }
    }

    func writeOptional(_ flag: Bool?) {
        if let flag { writeBool(flag) } else { writeNull() }
    }

    func writeOptional(_ number: Int?) {
        if let number { writeInteger(number) } else { writeNull() }
    }

    func writeOptional(_ number: Double?) throws {
        if let number { try writeFloatingPoint(number, path: keyPath) } else { writeNull() }
    }

    /// A nested value of a direct writer: the bytes cached for its usual constant value, or the
    /// generic path for anything else.
    func writeNested<Value: Encodable & Equatable>(_ value: Value, constant: Value, as cached: [UInt8]) throws {
        if value == constant, !cached.isEmpty {
            bytes.append(contentsOf: cached)
        } else {
            try write(value, depth: open.count)
        }
    }

    // MARK: Structure

    func close(downTo depth: Int) {
        while open.count > depth {
            bytes.append(open.removeLast().isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// The container that encodes the value at `depth`: the one already open there, or a new one.
    func container(isObject: Bool, depth: Int) -> Int {
        close(downTo: depth + 1)
        if open.count == depth + 1, open[depth].isObject == isObject { return depth }
        close(downTo: depth)
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(OpenContainer(isObject: isObject))
        return depth
    }

    /// Starts an entry of the object at `index`: closes what its previous entry left open, then writes
    /// the separator and the key.
    func beginEntry(_ key: String, in index: Int) {
        close(downTo: index + 1)
        if open[index].hasEntries { bytes.append(UInt8(ascii: ",")) }
        open[index].hasEntries = true
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an element of the array at `index`.
    func beginElement(in index: Int) {
        close(downTo: index + 1)
        if open[index].hasEntries { bytes.append(UInt8(ascii: ",")) }
        open[index].hasEntries = true
    }

    // MARK: Values

    /// Writes any value at `depth`; primitives take the fast paths, others encode themselves.
    func write<Value: Encodable>(_ value: Value, depth: Int, key: (any CodingKey)? = nil) throws {
        // Metatype comparisons first: far cheaper than asking the run time for a protocol conformance.
        if usesDirectWriters,
            Value.self == ContactResource.self || Value.self == ContactShortResource.self
                || Value.self == ReminderTimelineResource.self || Value.self == AddressResource.self
                || Value.self == AddressShortResource.self || Value.self == PlaceResource.self
                || Value.self == SyncPullResource.self,
            let direct = value as? any DirectJSONWritable
        {
            return try direct.writeJSON(to: self)
        }
        // A whole answer (a page of a list) is asked once per response, so asking the run time is cheap
        // there; deeper down it would be asked for every value.
        if usesDirectWriters, depth == 0, let direct = value as? any DirectJSONWritable {
            return try direct.writeJSON(to: self)
        }
        if usesDirectWriters, Value.self == [UpcomingReminderResource].self,
            let occurrences = value as? [UpcomingReminderResource]
        {
            return try UpcomingReminderResource.writeJSON(occurrences, to: self)
        }
        // A list of contacts: the elements write themselves, without an array container per element.
        if usesDirectWriters, Value.self == [ContactResource].self, let contacts = value as? [ContactResource] {
            return try writeDirectArray(contacts)
        }
        if Value.self == String.self, let text = value as? String {
            return writeString(text)
        }
        if Value.self == Int.self, let number = value as? Int {
            return writeInteger(number)
        }
        if Value.self == Bool.self, let flag = value as? Bool {
            return writeBool(flag)
        }
        // Foundation's own encodings of these are not what the API promises (a number for a date, an
        // object for a URL), so they are written here. Other numbers encode themselves through
        // `StreamingSingleValueContainer`'s overloads.
        if Value.self == Date.self, let date = value as? Date {
            return writeString(Timestamp.string(date))
        }
        if Value.self == URL.self, let url = value as? URL {
            return writeString(url.absoluteString)
        }
        if Value.self == Decimal.self, let number = value as? Decimal {
            return bytes.append(contentsOf: number.description.utf8)
        }
        if let key { keyPath.append(key) }
        defer { if key != nil { keyPath.removeLast() } }
        let start = bytes.count
        try value.encode(to: StreamingEncoder(writer: self, depth: depth))
        close(downTo: depth)
        // A value that wrote nothing at all is an empty object, as Foundation's encoder makes it.
        if bytes.count == start { bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }
    }

    private func writeDirectArray(_ elements: [some DirectJSONWritable]) throws {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try element.writeJSON(to: self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    func writeNull() {
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    func writeBool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [
                UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"),
            ])
        }
    }

    func writeInteger<Integer: BinaryInteger>(_ value: Integer) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        // Digits are produced last first, into a small stack buffer, then copied in order.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
            var count = 0
            while magnitude > 0 {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                digits[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remainder)
                count += 1
                magnitude = quotient
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            while count > 0 {
                count -= 1
                bytes.append(digits[count])
            }
        }
    }

    /// Shortest text that reads back as the same number; JSON has no infinity or NaN.
    func writeFloatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Number, path: @autoclosure () -> [any CodingKey]
    ) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "JSON has no \(value)"))
        }
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string: runs of bytes that need no escaping are copied whole; quotes, backslashes,
    /// control characters, the line and paragraph separators (which break JavaScript) and U+FEFF (which
    /// Foundation's parser drops when it comes unescaped) are escaped.
    func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            let count = utf8.count
            while index < count {
                let byte = utf8[index]
                if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != 0xE2, byte != 0xEF {
                    index += 1
                    continue
                }
                if byte == 0xEF {
                    // U+FEFF is EF BB BF.
                    guard index + 2 < count, utf8[index + 1] == 0xBB, utf8[index + 2] == 0xBF else {
                        index += 1
                        continue
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    bytes.append(contentsOf: Self.byteOrderMark)
                    index += 3
                    runStart = index
                    continue
                }
                if byte == 0xE2 {
                    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; every other E2 sequence is copied.
                    guard index + 2 < count, utf8[index + 1] == 0x80, utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9
                    else {
                        index += 1
                        continue
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    bytes.append(contentsOf: utf8[index + 2] == 0xA8 ? Self.lineSeparator : Self.paragraphSeparator)
                    index += 3
                    runStart = index
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(for: byte)
                index += 1
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let lineSeparator = Array(#"\u2028"#.utf8)
    private static let paragraphSeparator = Array(#"\u2029"#.utf8)
    private static let byteOrderMark = Array(#"\ufeff"#.utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [
                UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hexDigits[Int(byte >> 4)],
                Self.hexDigits[Int(byte & 0xF)],
            ])
        }
    }
}

/// Resources that write their own JSON, faster than `Encodable` and to the same bytes.
protocol DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws
}
