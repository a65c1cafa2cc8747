import Foundation

public enum EmailAddress {
    /// Trimmed and lower-cased, so one person cannot hold two accounts by changing case.
    public static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// A pragmatic check (something@something.tld, no spaces), not RFC 5322: real mail servers are
    /// the final judge, this only catches typing mistakes.
    public static func isPlausible(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, text.unicodeScalars.count <= 254,
            !text.contains(where: { $0.isWhitespace })
        else { return false }
        let domainLabels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domainLabels.count >= 2 && domainLabels.allSatisfy { !$0.isEmpty }
    }
}
