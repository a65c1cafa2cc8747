import Foundation
import LocifyCore

/// `GET /api/me`.
public struct UserResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "user"
    public var firstName: String
    @Nullable public var lastName: String?
    public var name: String
    public var email: String
    @Nullable public var meContact: ContactShortResource?
    public var timezone: String
    public var locale: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case firstName = "first_name"
        case lastName = "last_name"
        case name, email
        case meContact = "me_contact"
        case timezone, locale, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(
        id: Int, uuid: UUID, profile: AccountProfile, meContact: ContactShortResource? = nil, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid.lowercasedText
        firstName = profile.firstName
        lastName = profile.lastName
        name = profile.name
        email = profile.email
        self.meContact = meContact
        timezone = profile.timezone
        locale = "en"
        account = AccountReference(id: id)
        self.createdAt = Timestamp.string(createdAt)
        self.updatedAt = Timestamp.string(updatedAt)
    }
}

/// `GET /api`.
public struct APIRootResource: Codable, Sendable, Equatable {
    public struct Success: Codable, Sendable, Equatable {
        public var message: String
    }

    public struct Links: Codable, Sendable, Equatable {
        public var contactsURL: String
        public var addressesURL: String
        public var countriesURL: String
        public var remindersURL: String
        public var placesURL: String

        enum CodingKeys: String, CodingKey {
            case contactsURL = "contacts_url"
            case addressesURL = "addresses_url"
            case countriesURL = "countries_url"
            case remindersURL = "reminders_url"
            case placesURL = "places_url"
        }

        public init(
            contactsURL: String, addressesURL: String, countriesURL: String, remindersURL: String, placesURL: String
        ) {
            self.contactsURL = contactsURL
            self.addressesURL = addressesURL
            self.countriesURL = countriesURL
            self.remindersURL = remindersURL
            self.placesURL = placesURL
        }
    }

    public var success = Success(message: "Welcome to Locify")
    public var links: Links

    public init(links: Links) {
        self.links = links
    }
}

/// `POST /oauth/login` body (JSON or form).
public struct OAuthLoginRequest: Codable, Sendable {
    public var email: String?
    public var password: String?

    public init(email: String?, password: String?) {
        self.email = email
        self.password = password
    }
}

public struct OAuthLoginResource: Codable, Sendable, Equatable {
    public var accessToken: String
    public var expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
    }

    public init(accessToken: String, expiresIn: Int) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
    }
}

/// `GET /health`.
public struct HealthResource: Codable, Sendable, Equatable {
    public var status: String
    public var database: String
    public var version: String
    /// Why the server is unavailable; absent when it is fine.
    public var reason: String?

    public init(status: String, database: String, version: String, reason: String? = nil) {
        self.status = status
        self.database = database
        self.version = version
        self.reason = reason
    }
}

/// `GET /health/live`: the server answers, whatever its database is doing.
public struct LivenessResource: Codable, Sendable, Equatable {
    public var status = "ok"
    public var version: String

    public init(version: String) {
        self.version = version
    }
}
