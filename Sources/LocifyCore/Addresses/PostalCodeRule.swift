import Foundation

/// A country's postal-code pattern, anchored and case-insensitive, with a message that shows an example.
public struct PostalCodeRule: Sendable {
    let format: AddressFormat
    let countryName: String

    public init(format: AddressFormat, countryName: String) {
        self.format = format
        self.countryName = countryName
    }

    /// nil when `postalCode` fits the pattern (or the country has none).
    public func problem(with postalCode: String) -> String? {
        guard let pattern = format.postalCodePattern else { return nil }
        guard !Self.matches(postalCode, pattern: pattern) else { return nil }
        let label = format.postalCodeLabel
        let plural = label + "s"  // every label ends in "code": ZIP codes, Postcodes, Eircodes
        guard let example = format.postalCodeExamples.first else {
            return "That \(label.lowercasedFirst) is not valid in \(countryName)."
        }
        return "\(plural) in \(Self.withArticle(countryName)) look like \(example)."
    }

    /// Every format is written in ASCII, so a code with any other character never fits: ICU would
    /// otherwise let `\d` take any script's digits and case folding take "ſ" (U+017F) for "s", more
    /// than the formats (and the API's description of them) say.
    static func matches(_ text: String, pattern: String) -> Bool {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        guard let expression = PatternCache.shared.expression(for: pattern) else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    /// "the United Kingdom", "the Netherlands", but "France".
    static func withArticle(_ name: String) -> String {
        let lower = name.lowercased()
        let takesArticle = [
            "united ", "republic", "islands", "netherlands", "philippines", "bahamas", "gambia",
            "maldives", "comoros", "seychelles", "holy see", "isle of man", "emirates", "kingdom",
        ]
        .contains { lower.hasPrefix($0) || lower.hasSuffix($0) || lower.contains(" \($0)") }
        return takesArticle ? "the " + name : name
    }
}

/// Compiled postal-code patterns, shared: compiling an ICU regular expression costs more than matching.
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    private var expressions: [String: NSRegularExpression] = [:]
    private let lock = NSLock()

    func expression(for pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[pattern] { return cached }
        let compiled = try? NSRegularExpression(pattern: "^(?:\(pattern))$", options: [.caseInsensitive])
        expressions[pattern] = compiled
        return compiled
    }
}

extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
