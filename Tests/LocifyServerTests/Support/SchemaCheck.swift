import Foundation
import LocifyAPI

/// `JSONValue` (LocifyAPI's: it keeps `true` apart from 1, which Foundation's parser on Linux does not)
/// as the schema checks read it.
extension JSONValue {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// Checks a JSON value against a schema of the OpenAPI document, in both directions: every key the
/// value has is declared, every declared key is present, and each value has a declared type. Covers
/// the parts of JSON Schema the response schemas use (type, properties, items, $ref, oneOf, anyOf,
/// const, enum), which is what keeps the wire types and the document from drifting apart.
struct SchemaCheck {
    let components: [String: JSONValue]

    init(document: JSONValue) {
        if case .object(let schemas) = document["components"]?["schemas"] ?? .null {
            components = schemas
        } else {
            components = [:]
        }
    }

    /// The problems found, each with the path to the value; empty when the value fits.
    func problems(_ value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        if let reference = schema["$ref"]?.string {
            let name = reference.components(separatedBy: "/").last ?? reference
            guard let target = components[name] else { return ["\(path): unknown \(reference)"] }
            return problems(value, against: target, at: path)
        }
        for keyword in ["oneOf", "anyOf"] {
            if case .array(let options) = schema[keyword] ?? .null {
                let fits = options.filter { problems(value, against: $0, at: path).isEmpty }
                if fits.isEmpty { return ["\(path): fits none of the \(keyword) options"] }
                if keyword == "oneOf", fits.count > 1 { return ["\(path): fits \(fits.count) oneOf options"] }
                return []
            }
        }
        if let constant = schema["const"], constant != value { return ["\(path): is not \(constant)"] }
        if case .array(let options) = schema["enum"] ?? .null, !options.contains(value) {
            return ["\(path): \(value) is not one of the listed values"]
        }
        let types: [String]
        switch schema["type"] {
        case .string(let name): types = [name]
        case .array(let names): types = names.compactMap(\.string)
        default: types = []
        }
        if !types.isEmpty, !types.contains(where: { Self.has(value, type: $0) }) {
            return ["\(path): \(value) where the schema says \(types.joined(separator: " or "))"]
        }
        var found: [String] = []
        if case .object(let object) = value, case .object(let properties) = schema["properties"] ?? .null {
            for key in Set(object.keys).subtracting(properties.keys).sorted() {
                found.append("\(path).\(key): sent, but not in the schema")
            }
            // With a `required` list, the other properties may be left out (`with=contactfields`'s keys).
            let expected: [String] =
                if case .array(let names) = schema["required"] ?? .null { names.compactMap(\.string) } else {
                    Array(properties.keys)
                }
            for key in Set(expected).subtracting(object.keys).sorted() {
                found.append("\(path).\(key): in the schema, but not sent")
            }
            for (key, propertyValue) in object.sorted(by: { $0.key < $1.key }) {
                if let propertySchema = properties[key] {
                    found += problems(propertyValue, against: propertySchema, at: "\(path).\(key)")
                }
            }
        }
        if case .array(let items) = value, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() {
                found += problems(item, against: itemSchema, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("number", .integer), ("integer", .integer),
            ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .number(let number)):
            return number.rounded() == number
        default:
            return false
        }
    }
}
