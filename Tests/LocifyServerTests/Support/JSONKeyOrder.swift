import Foundation

/// The keys of a JSON object in the order they were written, which Foundation's parsers do not keep:
/// Monica clients rely on key order, so tests check it.
enum JSONKeyOrder {
    /// The keys of the object found by following `path` (object keys) from the top.
    static func keys(of text: String, at path: [String]) -> [String]? {
        var scanner = Scanner(bytes: Array(text.utf8))
        return scanner.keys(at: path[...])
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        /// Reads the object here; returns its keys when `path` is empty, else descends into `path.first`
        /// (`"0"` for an array's first element).
        mutating func keys(at path: ArraySlice<String>) -> [String]? {
            skipSpace()
            // An array's first element is "0" in the path.
            if position < bytes.count, bytes[position] == UInt8(ascii: "["), path.first == "0" {
                position += 1
                return keys(at: path.dropFirst())
            }
            guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
            position += 1
            var keys: [String] = []
            while true {
                skipSpace()
                if bytes[position] == UInt8(ascii: "}") { return path.isEmpty ? keys : nil }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipSpace()
                }
                guard let key = string() else { return nil }
                keys.append(key)
                skipSpace()
                position += 1  // the colon
                if let wanted = path.first, wanted == key { return self.keys(at: path.dropFirst()) }
                skipValue()
            }
        }

        mutating func string() -> String? {
            guard bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position
            position += 1
            while bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            position += 1
            let literal = String(decoding: bytes[start..<position], as: UTF8.self)
            return try? JSONDecoder().decode(String.self, from: Data(literal.utf8))
        }

        /// Steps over one value of any kind: to the `,` or closing bracket after it.
        mutating func skipValue() {
            skipSpace()
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    _ = string()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return }
                default:
                    break
                }
                position += 1
            }
        }
    }
}
