import Foundation
import LocifyCore

/// The `Encoder` a nested value sees: it writes into the shared writer at its depth.
struct StreamingEncoder: Encoder {
    let writer: JSONWriter
    let depth: Int
    var codingPath: [any CodingKey] { writer.keyPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            StreamingKeyedContainer<Key>(writer: writer, index: writer.container(isObject: true, depth: depth)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamingUnkeyedContainer(writer: writer, index: writer.container(isObject: false, depth: depth))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(writer: writer, depth: depth)
    }
}

struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONWriter
    /// This object's place in the writer's stack of open containers.
    let index: Int
    var codingPath: [any CodingKey] { writer.keyPath }

    mutating func encodeNil(forKey key: Key) throws {
        writer.beginEntry(key.stringValue, in: index)
        writer.writeNull()
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.beginEntry(key.stringValue, in: index)
        writer.writeString(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        writer.beginEntry(key.stringValue, in: index)
        writer.writeBool(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        writer.beginEntry(key.stringValue, in: index)
        writer.writeInteger(value)
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        writer.beginEntry(key.stringValue, in: index)
        try writer.write(value, depth: index + 1, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.beginEntry(key.stringValue, in: index)
        let nested = writer.container(isObject: true, depth: index + 1)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(writer: writer, index: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.beginEntry(key.stringValue, in: index)
        return StreamingUnkeyedContainer(writer: writer, index: writer.container(isObject: false, depth: index + 1))
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginEntry("super", in: index)
        return StreamingEncoder(writer: writer, depth: index + 1)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.beginEntry(key.stringValue, in: index)
        return StreamingEncoder(writer: writer, depth: index + 1)
    }
}

struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONWriter
    let index: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { writer.keyPath }

    init(writer: JSONWriter, index: Int) {
        self.writer = writer
        self.index = index
    }

    mutating func encodeNil() throws {
        writer.beginElement(in: index)
        writer.writeNull()
        count += 1
    }

    mutating func encode(_ value: String) throws {
        writer.beginElement(in: index)
        writer.writeString(value)
        count += 1
    }

    mutating func encode(_ value: Bool) throws {
        writer.beginElement(in: index)
        writer.writeBool(value)
        count += 1
    }

    mutating func encode(_ value: Int) throws {
        writer.beginElement(in: index)
        writer.writeInteger(value)
        count += 1
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        writer.beginElement(in: index)
        try writer.write(value, depth: index + 1, key: IndexKey(intValue: count))
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.beginElement(in: index)
        count += 1
        return KeyedEncodingContainer(
            StreamingKeyedContainer<NestedKey>(
                writer: writer, index: writer.container(isObject: true, depth: index + 1)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.beginElement(in: index)
        count += 1
        return StreamingUnkeyedContainer(writer: writer, index: writer.container(isObject: false, depth: index + 1))
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginElement(in: index)
        count += 1
        return StreamingEncoder(writer: writer, depth: index + 1)
    }
}

/// A single value: every primitive has its own overload, because the generic one hands the value back
/// to `JSONWriter.write`, which lets it encode itself: a number without an overload would come straight
/// back here for ever.
struct StreamingSingleValueContainer: SingleValueEncodingContainer {
    let writer: JSONWriter
    let depth: Int
    var codingPath: [any CodingKey] { writer.keyPath }

    mutating func encodeNil() throws { writer.writeNull() }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
    mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Double) throws { try writer.writeFloatingPoint(value, path: codingPath) }
    mutating func encode(_ value: Float) throws { try writer.writeFloatingPoint(value, path: codingPath) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try writer.write(value, depth: depth)
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
