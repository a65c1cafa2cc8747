import Crypto
import Foundation

/// Personal API tokens: random secrets shown once and stored only as their SHA-256 digest.
public enum PersonalToken {
    public static let length = 48
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A new token from `generator` (a system random generator in production, a seeded one in tests).
    public static func generate<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// Hex SHA-256: what the database keeps, so a leaked database leaks no usable token.
    public static func digest(_ token: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(token.utf8)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Monica clients send tokens of 20–2000 characters of `A-Za-z0-9-._~+/=`; anything else is not a
    /// token, so it is refused before a database look-up.
    public static func hasAcceptableShape(_ token: String) -> Bool {
        (20...2000).contains(token.utf8.count)
            && token.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                    true
                default:
                    false
                }
            }
    }
}

/// A personal token as Settings and `locify token list` show it; the secret itself is never kept.
public struct PersonalTokenSummary: Sendable, Equatable {
    public let id: Int
    public let label: String
    public let createdAt: Date
    public let lastUsedAt: Date?
    /// Tokens made in Settings or by the CLI never expire; OAuth log-ins do.
    public let expiresAt: Date?

    public init(id: Int, label: String, createdAt: Date, lastUsedAt: Date?, expiresAt: Date?) {
        self.id = id
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }
}
