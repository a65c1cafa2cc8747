import Foundation
import LocifyCore

/// Monica's compliance term (`object: "term"`): the terms of use and the privacy policy, each versioned.
public struct PolicyResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "term"
    public var termVersion: String
    public var termContent: String
    public var privacyVersion: String
    public var privacyContent: String
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object
        case termVersion = "term_version"
        case termContent = "term_content"
        case privacyVersion = "privacy_version"
        case privacyContent = "privacy_content"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ policy: Policy) {
        id = policy.id
        termVersion = policy.termVersion
        termContent = policy.termContent
        privacyVersion = policy.privacyVersion
        privacyContent = policy.privacyContent
        createdAt = Timestamp.string(policy.publishedAt)
        updatedAt = Timestamp.string(policy.publishedAt)
    }
}

/// One policy the signed-in person agreed to, as Monica's `/api/me/compliance` answers it.
public struct SignedPolicyResource: Codable, Sendable, Equatable {
    public var signed = true
    public var signedDate: String
    @Nullable public var ipAddress: String?
    public var user: UserResource
    public var term: PolicyResource

    enum CodingKeys: String, CodingKey {
        case signed
        case signedDate = "signed_date"
        case ipAddress = "ip_address"
        case user, term
    }

    public init(_ signed: SignedPolicy, user: UserResource) {
        signedDate = Timestamp.string(signed.signedAt)
        ipAddress = signed.ipAddress
        self.user = user
        term = PolicyResource(signed.policy)
    }
}

/// The body of `POST /api/me/compliance`: the address the app says the person agreed from.
public struct PolicySigningInput: Decodable, Sendable {
    public private(set) var ipAddress: String?
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ["ip_address": "IP address"])
        ipAddress = reader.text("ip_address")
        typeErrors = reader.errors
    }
}
