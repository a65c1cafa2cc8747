import Foundation

/// Monica's `hash_id` ("h:…"): an opaque, stable string per contact id.
public enum HashID {
    static let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)

    public static func encode(_ id: Int) -> String {
        // Spread small ids over more characters so neighbouring contacts do not look alike.
        var value = UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15 ^ 0x5bd1_e995
        let base = UInt64(alphabet.count)
        return String(unsafeUninitializedCapacity: 10) { buffer in
            buffer[0] = UInt8(ascii: "h")
            buffer[1] = UInt8(ascii: ":")
            var count = 2
            repeat {
                buffer[count] = alphabet[Int(value % base)]
                count += 1
                value /= base
            } while value > 0 && count < 10
            return count
        }
    }
}
