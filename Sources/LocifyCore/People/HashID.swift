import Foundation

/// Monica's `hash_id` ("h:…"): an opaque, stable string per contact id.
public enum HashID {
    static let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    public static func encode(_ id: Int) -> String {
        // Spread small ids over more characters so neighbouring contacts do not look alike.
        var value = UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15 ^ 0x5bd1_e995
        var characters: [Character] = []
        repeat {
            characters.append(alphabet[Int(value % UInt64(alphabet.count))])
            value /= UInt64(alphabet.count)
        } while value > 0 && characters.count < 8
        return "h:" + String(characters)
    }
}
