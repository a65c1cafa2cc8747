import Foundation

/// Each byte's value as a hex digit, 0xFF for bytes that are not one.
private let hexValues: [UInt8] = (0...255).map { byte in
    switch byte {
    case 0x30...0x39: UInt8(byte - 0x30)
    case 0x61...0x66: UInt8(byte - 0x61 + 10)
    case 0x41...0x46: UInt8(byte - 0x41 + 10)
    default: 0xFF
    }
}

extension UUID {
    /// A UUID from its canonical 36-character text (`8-4-4-4-12` hex digits, either case), read byte by
    /// byte: several times faster than `UUID(uuidString:)`, which matters for every row of a list.
    public init?(canonicalText text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { utf8 in
            guard utf8.count == 36, utf8[8] == 0x2D, utf8[13] == 0x2D, utf8[18] == 0x2D, utf8[23] == 0x2D else {
                return nil
            }
            func nibble(_ byte: UInt8) -> UInt8? {
                let value = hexValues[Int(byte)]
                return value == 0xFF ? nil : value
            }
            // Written into the tuple itself: a scratch array was a heap allocation per row.
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
                var index = 0
                var position = 0
                while position < 36 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        position += 1
                        continue
                    }
                    guard let high = nibble(utf8[position]), let low = nibble(utf8[position + 1]) else { return false }
                    bytes[index] = high << 4 | low
                    index += 1
                    position += 2
                }
                return true
            }
            return complete ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }
}

extension UUID {
    /// The canonical text in lower case, as Monica writes UUIDs: written byte by byte, without the
    /// upper-case string and its lower-cased copy that `uuidString.lowercased()` makes.
    public var lowercasedText: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    buffer[position] = digits[Int(byte >> 4)]
                    buffer[position + 1] = digits[Int(byte & 0xF)]
                    position += 2
                }
                return position
            }
        }
    }
}
