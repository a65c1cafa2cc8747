import Foundation

extension JSONValue {
    /// Objects and arrays nest at most this deep, as in Foundation's `JSONDecoder`.
    public static let maximumDepth = 512

    /// The value `bytes` (UTF-8 JSON, RFC 8259) hold: what `JSONDecoder().decode(JSONValue.self, from:)`
    /// answers, read in one pass. Through `Decodable` every value is tried as each kind in turn and every
    /// wrong guess throws, which was a tenth of a sync push's time on the server.
    /// A number without fraction or exponent that fits an `Int` is `.integer`, as is one with them whose
    /// value is whole and fits (`5.0`); any other is `.number`. Malformed JSON throws
    /// `DecodingError.dataCorrupted`; like `JSONDecoder`, a comma before a closing bracket is let through.
    public init(parsing bytes: some Collection<UInt8>) throws {
        func document(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
            var parser = Parser(buffer)
            return try parser.document()
        }
        self = try bytes.withContiguousStorageIfAvailable(document) ?? Array(bytes).withUnsafeBufferPointer(document)
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func document() throws -> JSONValue {
            let value = try self.value(depth: 0)
            skipWhitespace()
            guard position == bytes.count else { throw malformed("unexpected text after the value") }
            return value
        }

        private mutating func value(depth: Int) throws -> JSONValue {
            skipWhitespace()
            guard position < bytes.count else { throw malformed("the text ends where a value should be") }
            let opensContainer = bytes[position] == UInt8(ascii: "{") || bytes[position] == UInt8(ascii: "[")
            guard !opensContainer || depth < JSONValue.maximumDepth else { throw malformed("values nest too deep") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw malformed("unexpected character")
            }
        }

        private mutating func object(depth: Int) throws -> JSONValue {
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw malformed("an object's key must be a string")
                }
                let key = try string()
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { throw malformed("a key must be followed by a colon") }
                members[key] = try value(depth: depth)
                if try closes(UInt8(ascii: "}")) { return .object(members) }
            }
        }

        private mutating func array(depth: Int) throws -> JSONValue {
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                elements.append(try value(depth: depth))
                if try closes(UInt8(ascii: "]")) { return .array(elements) }
            }
        }

        /// After a member of an object or an array: true when `bracket` closes it, false when a comma says
        /// another member follows. A comma before the bracket is let through, as JSONDecoder lets it.
        private mutating func closes(_ bracket: UInt8) throws -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: ",")) else {
                guard take(bracket) else { throw malformed("members are separated by commas") }
                return true
            }
            skipWhitespace()
            return take(bracket)
        }

        private mutating func string() throws -> String {
            position += 1
            let start = position
            // Most strings have no escape: their bytes are the text.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    defer { position += 1 }
                    return try text(start..<position)
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw malformed("a control character in a string") }
                position += 1
            }
            var utf8 = Array(bytes[start..<position])
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return try utf8.withUnsafeBufferPointer { try text(in: $0) }
                case UInt8(ascii: "\\"):
                    try escape(into: &utf8)
                case ..<0x20:
                    throw malformed("a control character in a string")
                default:
                    utf8.append(byte)
                }
            }
            throw malformed("a string is not closed")
        }

        private mutating func escape(into utf8: inout [UInt8]) throws {
            guard position < bytes.count else { throw malformed("a string is not closed") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexUnit()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A character beyond the first plane comes as two escapes, high then low.
                    guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else {
                        throw malformed("a lone surrogate in a \\u escape")
                    }
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low) else { throw malformed("a lone surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw malformed("a lone surrogate in a \\u escape")
                }
                guard let character = Unicode.Scalar(scalar) else { throw malformed("an invalid \\u escape") }
                utf8.append(contentsOf: String(character).utf8)
            default:
                throw malformed("an invalid escape in a string")
            }
        }

        private mutating func hexUnit() throws -> UInt32 {
            guard position + 4 <= bytes.count else { throw malformed("a \\u escape needs four hex digits") }
            var unit: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw malformed("a \\u escape needs four hex digits")
                }
                unit = unit << 4 | UInt32(digit)
                position += 1
            }
            return unit
        }

        private mutating func number() throws -> JSONValue {
            let start = position
            var isWhole = true
            _ = take(UInt8(ascii: "-"))
            guard position < bytes.count, isDigit(bytes[position]) else { throw malformed("a number needs digits") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                skipDigits()
            }
            if take(UInt8(ascii: ".")) {
                isWhole = false
                guard position < bytes.count, isDigit(bytes[position]) else {
                    throw malformed("a number's fraction needs digits")
                }
                skipDigits()
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                isWhole = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard position < bytes.count, isDigit(bytes[position]) else {
                    throw malformed("a number's exponent needs digits")
                }
                skipDigits()
            }
            let literal = String(decoding: bytes[start..<position], as: UTF8.self)
            if isWhole, let integer = Int(literal) { return .integer(integer) }
            guard let number = Double(literal), number.isFinite else { throw malformed("a number out of range") }
            if let integer = Int(exactly: number) { return .integer(integer) }
            return .number(number)
        }

        private mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count,
                word.withUTF8Buffer({ $0.elementsEqual(bytes[position..<position + count]) })
            else { throw malformed("unexpected character") }
            position += count
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        private mutating func skipDigits() {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        private func text(_ range: Range<Int>) throws -> String {
            try text(in: UnsafeBufferPointer(rebasing: bytes[range]))
        }

        private func text(in utf8: UnsafeBufferPointer<UInt8>) throws -> String {
            guard let text = String(validating: utf8, as: UTF8.self) else { throw malformed("text that is not UTF-8") }
            return text
        }

        private func malformed(_ problem: String) -> DecodingError {
            DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription: "The given data was not valid JSON: \(problem) at byte \(position)."
                ))
        }
    }
}
