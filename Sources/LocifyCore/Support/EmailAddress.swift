import Foundation

public enum EmailAddress {
    /// Trimmed and lower-cased, so one person cannot hold two accounts by changing case.
    public static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Something@something with no spaces or angle brackets: what a mail command can be handed as a
    /// recipient (a server's own `admin@localhost` too). `LOCIFY_FEEDBACK_EMAIL` must be one.
    public static func isMailbox(_ text: String) -> Bool {
        hasOneAt(text) && !text.contains { $0 == "<" || $0 == ">" }
    }

    /// A pragmatic check for a person's address (something@something.tld, no spaces), not RFC 5322: real
    /// mail servers are the final judge, this only catches typing mistakes. Accounts and contacts use it.
    public static func isPlausible(_ text: String) -> Bool {
        guard hasOneAt(text), let domain = text.unicodeScalars.split(separator: "@").last else { return false }
        let domainLabels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return domainLabels.count >= 2 && domainLabels.allSatisfy { !$0.isEmpty }
    }

    /// One `@` with something either side, no spaces, and no longer than an address may be. Read by code
    /// points, as mail is: an `@` or a `.` followed by a combining mark is still one (as characters, "@🏻"
    /// would be a single one).
    private static func hasOneAt(_ text: String) -> Bool {
        let parts = text.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && text.unicodeScalars.count <= 254
            && !text.unicodeScalars.contains(where: \.properties.isWhitespace)
    }
}
