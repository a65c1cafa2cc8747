import Foundation

/// The terms a person agrees to on this server (Monica's "compliance" term: its terms of use and privacy
/// policy, each with a version). Locify has one, the same on every server: a self-hosted server's
/// operator is the only party that holds the data.
public struct Policy: Equatable, Sendable {
    public let id: Int
    public let termVersion: String
    public let termContent: String
    public let privacyVersion: String
    public let privacyContent: String
    public let publishedAt: Date

    public static let current = Policy(
        id: 1, termVersion: "1",
        termContent: """
            This Locify server is run by whoever set it up, not by the makers of Locify. What you keep here \
            stays on this server, under its operator's care; there is no service behind it and no one else \
            to answer to. Keep your own copy: the export gives you everything as vCard, iCalendar and GeoJSON.
            """,
        privacyVersion: "1",
        privacyContent: """
            Locify sends your data nowhere by itself. The operator may switch on outside services: a \
            geocoder (addresses are sent to find them on the map), Gravatar (a hash of e-mail addresses), \
            a map tile server (the areas you look at), webhooks and mail (your reminders). Nothing is sold, \
            profiled or shown to anyone but you.
            """,
        // The day this text was written; a new text takes a new id and version.
        publishedAt: Date(timeIntervalSince1970: 1_795_910_400))

    /// Every policy this server has had, newest first.
    public static let all = [current]

    public static func policy(_ id: Int) -> Policy? { all.first { $0.id == id } }

    /// Monica's `ip_address` rules: required (its controller's), at most 255 characters (its service's).
    public static func validatedAddress(_ text: String?) throws(ValidationFailure) -> String {
        var check = FieldChecker()
        let address = check.text(text, field: "ip_address", label: "IP address")
        guard let address else {
            throw ValidationFailure([FieldError(field: "ip_address", message: "The ip address field is required.")])
        }
        return try check.finish(address)
    }
}

/// The owner's agreement to one policy: when, and from which address their app said it was.
public struct SignedPolicy: Equatable, Sendable {
    public let policy: Policy
    public let signedAt: Date
    public let ipAddress: String?

    public init(policy: Policy, signedAt: Date, ipAddress: String?) {
        self.policy = policy
        self.signedAt = signedAt
        self.ipAddress = ipAddress
    }
}
