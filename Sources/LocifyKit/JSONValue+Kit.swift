import Foundation
import LocifyAPI

/// The store keeps each record as the JSON the server sent, whole: a field this version of the SDK does
/// not know survives every rewrite, and a record of a type it does not know is kept as it came.
extension JSONValue {
    subscript(key: String) -> JSONValue? {
        object?[key]
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var int: Int? {
        switch self {
        case .integer(let value): value
        case .number(let value) where value == value.rounded() && abs(value) < 9e15: Int(value)
        case .string(let text): Int(text)
        default: nil
        }
    }

    var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .string(let text): Double(text)
        default: nil
        }
    }

    var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .string(let text): ["true", "1", "yes", "on"].contains(text.lowercased())
        default: nil
        }
    }

    /// The value at a path of object keys (`information.career.job`).
    func value(at path: [String]) -> JSONValue? {
        path.reduce(Optional(self)) { value, key in value?[key] }
    }

    /// A copy with `value` at `path`, making the objects on the way.
    func setting(_ value: JSONValue, at path: ArraySlice<String>) -> JSONValue {
        guard let key = path.first else { return value }
        var members = object ?? [:]
        members[key] = (members[key] ?? .object([:])).setting(value, at: path.dropFirst())
        return .object(members)
    }

    /// Compact UTF-8 JSON.
    var data: Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(into: &bytes)
        return Data(bytes)
    }

    private func write(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: Array("null".utf8))
        case .bool(let value): bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
        case .integer(let value): bytes.append(contentsOf: Array(String(value).utf8))
        case .number(let value):
            // Swift's description is the shortest text that reads back as the same Double.
            bytes.append(contentsOf: Array((value.isFinite ? value.description : "null").utf8))
        case .string(let text): Self.writeString(text, into: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in members {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                Self.writeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
