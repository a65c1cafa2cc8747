import Foundation
import LocifyCore

/// Encodes JSON with object keys in the order the types encode them. Foundation's encoder keeps
/// objects in a dictionary, so its key order is arbitrary, and Monica's shapes list keys in a fixed
/// order that clients and tests compare against.
public struct OrderedJSONEncoder: Sendable {
    public init() {}

    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        var output = ""
        try JSONTree.make(value, codingPath: []).write(to: &output)
        return Data(output.utf8)
    }
}

enum JSONTree {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array(ArrayBox)
    case object(ObjectBox)

    final class ArrayBox {
        var items: [JSONTree] = []
    }

    final class ObjectBox {
        private(set) var entries: [(key: String, value: JSONTree)] = []

        func set(_ key: String, _ value: JSONTree) {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].value = value
            } else {
                entries.append((key, value))
            }
        }
    }

    static func make<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> JSONTree {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let date as Date: return .string(Timestamp.string(date))
        case let url as URL: return .string(url.absoluteString)
        case let number as Decimal: return .number(number.description)
        case let number as Double: return try finite(number, String(number), codingPath)
        case let number as Float: return try finite(Double(number), String(number), codingPath)
        case let number as any BinaryInteger: return .number(String(describing: number))
        default:
            let encoder = TreeEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.result ?? .object(ObjectBox())
        }
    }

    private static func finite(_ value: Double, _ text: String, _ path: [any CodingKey]) throws -> JSONTree {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "JSON has no \(value)"))
        }
        return .number(text)
    }

    func write(to output: inout String) throws {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let box):
            output += "["
            for (index, item) in box.items.enumerated() {
                if index > 0 { output += "," }
                try item.write(to: &output)
            }
            output += "]"
        case .object(let box):
            output += "{"
            for (index, entry) in box.entries.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(entry.key, to: &output)
                output += ":"
                try entry.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    var result: JSONTree?

    init(codingPath: [any CodingKey], result: JSONTree? = nil) {
        self.codingPath = codingPath
        self.result = result
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONTree.ObjectBox
        if case .object(let existing) = result {
            box = existing
        } else {
            box = JSONTree.ObjectBox()
            result = .object(box)
        }
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONTree.ArrayBox
        if case .array(let existing) = result {
            box = existing
        } else {
            box = JSONTree.ArrayBox()
            result = .array(box)
        }
        return UnkeyedTreeContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTreeContainer(encoder: self)
    }
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONTree.ObjectBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        box.set(key.stringValue, .null)
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        box.set(key.stringValue, try JSONTree.make(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        box.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        box.set(key.stringValue, .array(nested))
        return UnkeyedTreeContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super", path: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue, path: codingPath + [key])
    }

    private func superEncoder(named name: String, path: [any CodingKey]) -> any Encoder {
        let nested = JSONTree.ObjectBox()
        box.set(name, .object(nested))
        return TreeEncoder(codingPath: path, result: .object(nested))
    }
}

struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let box: JSONTree.ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private var indexKey: any CodingKey { IndexKey(intValue: box.items.count) }

    mutating func encodeNil() throws {
        box.items.append(.null)
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        box.items.append(try JSONTree.make(value, codingPath: codingPath + [indexKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = JSONTree.ObjectBox()
        let path = codingPath + [indexKey]
        box.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        let path = codingPath + [indexKey]
        box.items.append(.array(nested))
        return UnkeyedTreeContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = JSONTree.ObjectBox()
        let path = codingPath + [indexKey]
        box.items.append(.object(nested))
        return TreeEncoder(codingPath: path, result: .object(nested))
    }
}

struct SingleTreeContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.result = .null
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        encoder.result = try JSONTree.make(value, codingPath: codingPath)
    }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }

    init(intValue: Int) {
        self.intValue = intValue
    }

    init?(stringValue: String) {
        guard let value = Int(stringValue) else { return nil }
        intValue = value
    }
}
