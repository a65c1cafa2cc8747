import Foundation

public enum Avatar {
    /// Monica's eight default avatar colours, in Monica's order.
    public static let defaultColors = [
        "#fdb660", "#93521e", "#bd5067", "#b3d5fe", "#ff9807", "#709512", "#5f479a", "#e5e5cd",
    ]

    /// A colour picked from `defaultColors` by the contact's UUID: stable for the contact's life and
    /// spread evenly, without a random source to inject.
    public static func defaultColor(for uuid: UUID) -> String {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let sum = bytes.reduce(0) { $0 + Int($1) }
        return defaultColors[sum % defaultColors.count]
    }

    /// Monica's `initials`: the first letter or digit of each word of the name, after transliteration
    /// to ASCII ("Jean-Luc Picard" → "JP", "Дмитрий Иванов" → "DI").
    public static func monicaInitials(of name: String) -> String {
        // ASCII names need no transliteration; the others are remembered, since ICU's transforms cost
        // more than the rest of a contact's JSON and every list shows the same names again.
        if name.utf8.allSatisfy({ $0 < 128 }) { return asciiInitials(of: name) }
        return InitialsCache.shared.initials(of: name) { asciiInitials(of: TextFolding.ascii($0)) }
    }

    /// The first letter or digit of each word, read byte by byte: every contact of a list or a sync page
    /// is named through here, and splitting into `Character`s was a twentieth of a feed page's time.
    private static func asciiInitials(of asciiName: String) -> String {
        var initials = ""
        var startsWord = true
        for byte in asciiName.utf8 {
            switch byte {
            case 0x09...0x0D, 0x20:  // ASCII's white space (tab, line breaks, space)
                startsWord = true
            default:
                if startsWord, isLetterOrDigit(byte) { initials.unicodeScalars.append(Unicode.Scalar(byte)) }
                startsWord = false
            }
        }
        return initials
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }

    /// At most two characters for an avatar circle: first grapheme of the first and the last word,
    /// untransliterated, so Cyrillic, CJK and emoji names keep their own letters.
    public static func displayInitials(of name: String) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace })
        guard let first = words.first?.first else { return "?" }
        guard words.count > 1, let last = words.last?.first else { return String(first).uppercased() }
        return (String(first) + String(last)).uppercased()
    }

    /// Black or white, whichever contrasts more with `hexColor` (WCAG relative luminance).
    public static func textColor(on hexColor: String) -> String {
        let hex = hexColor.hasPrefix("#") ? String(hexColor.dropFirst()) : hexColor
        guard hex.count == 6, let value = Int(hex, radix: 16) else { return "#000000" }
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xff) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
        let contrastWithBlack = (luminance + 0.05) / 0.05
        let contrastWithWhite = 1.05 / (luminance + 0.05)
        return contrastWithBlack >= contrastWithWhite ? "#000000" : "#ffffff"
    }
}

/// Transliterated initials by name, bounded: when full it starts again rather than grow for ever.
final class InitialsCache: @unchecked Sendable {
    static let shared = InitialsCache()
    private static let capacity = 20_000
    /// Keyed by the name's bytes: hashing a `String` normalises it first, which costs more than the look-up.
    private var initialsByName: [[UInt8]: String] = [:]
    private let lock = NSLock()

    func initials(of name: String, computing compute: (String) -> String) -> String {
        let key = Array(name.utf8)
        lock.lock()
        let cached = initialsByName[key]
        lock.unlock()
        if let cached { return cached }
        let computed = compute(name)
        lock.lock()
        if initialsByName.count >= Self.capacity { initialsByName.removeAll(keepingCapacity: true) }
        initialsByName[key] = computed
        lock.unlock()
        return computed
    }
}
