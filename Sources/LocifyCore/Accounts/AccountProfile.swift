import Foundation

/// The account settings a person edits, validated.
public struct AccountProfile: Equatable, Sendable {
    public var name: String
    public var email: String
    public var timezone: String
    public var mapsApp: MapsApp

    public init(name: String, email: String, timezone: String = "UTC", mapsApp: MapsApp = .openStreetMap) {
        self.name = name
        self.email = email
        self.timezone = timezone
        self.mapsApp = mapsApp
    }

    /// Splits the name Monica-style: the last word is the last name, the rest the first name.
    public var firstName: String {
        let words = name.split(separator: " ")
        return words.count > 1 ? words.dropLast().joined(separator: " ") : name
    }

    public var lastName: String? {
        let words = name.split(separator: " ")
        return words.count > 1 ? words.last.map(String.init) : nil
    }
}

/// A registration or profile form as typed.
public struct AccountDraft: Sendable {
    public var name: String?
    public var email: String?
    public var timezone: String?
    public var mapsApp: String?

    public init(name: String?, email: String?, timezone: String? = nil, mapsApp: String? = nil) {
        self.name = name
        self.email = email
        self.timezone = timezone
        self.mapsApp = mapsApp
    }

    public func validated() throws(ValidationFailure) -> AccountProfile {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name")
        if name == nil { check.fail("name", "Name is required.") }
        let email = check.text(email, field: "email", label: "Email").map(EmailAddress.normalized)
        if let email {
            if !EmailAddress.isPlausible(email) {
                check.fail("email", "Email must be an address like name@example.com.")
            }
        } else {
            check.fail("email", "Email is required.")
        }
        let timezone = check.text(timezone, field: "timezone", label: "Timezone") ?? "UTC"
        if !TimeZones.isKnown(timezone) { check.fail("timezone", "Choose a timezone from the list.") }
        let mapsAppValue = check.text(mapsApp, field: "maps_app", label: "Maps app")
        let mapsApp = mapsAppValue.map { MapsApp(rawValue: $0) } ?? .openStreetMap
        if mapsApp == nil { check.fail("maps_app", "Choose a maps app from the list.") }
        return try check.finish(
            AccountProfile(
                name: name ?? "", email: email ?? "", timezone: timezone, mapsApp: mapsApp ?? .openStreetMap))
    }
}
