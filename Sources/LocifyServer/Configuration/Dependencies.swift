import Foundation
import LocifyCore
import Vapor

/// The side effects the server performs, each behind a small client so tests can replace it.
public struct LocifyDependencies: Sendable {
    /// The current instant. Tests fix it, so dates in responses are predictable.
    public var now: @Sendable () -> Date
    /// Hashes and checks passwords. Production uses bcrypt cost 12; tests use a lower cost.
    public var passwords: PasswordHasher
    /// New random secrets (API tokens, session ids, CSRF tokens).
    public var newSecret: @Sendable () -> String

    public init(now: @escaping @Sendable () -> Date, passwords: PasswordHasher, newSecret: @escaping @Sendable () -> String) {
        self.now = now
        self.passwords = passwords
        self.newSecret = newSecret
    }

    public static let live = LocifyDependencies(
        now: { Date() }, passwords: .bcrypt(cost: 12), newSecret: { PersonalToken.generate() })
}

public struct PasswordHasher: Sendable {
    public var hash: @Sendable (String) throws -> String
    public var verify: @Sendable (String, String) throws -> Bool

    public static func bcrypt(cost: Int) -> PasswordHasher {
        PasswordHasher(
            hash: { try Bcrypt.hash($0, cost: cost) },
            verify: { password, digest in try Bcrypt.verify(password, created: digest) })
    }
}

extension Application {
    private struct DependenciesKey: StorageKey {
        typealias Value = LocifyDependencies
    }

    private struct ConfigKey: StorageKey {
        typealias Value = LocifyConfig
    }

    /// Set by `configure`; reading it before then is a programming error worth stopping on.
    public var dependencies: LocifyDependencies {
        get {
            guard let value = storage[DependenciesKey.self] else { fatalError("configure(_:config:dependencies:) was not called") }
            return value
        }
        set { storage[DependenciesKey.self] = newValue }
    }

    public var locifyConfig: LocifyConfig {
        get {
            guard let value = storage[ConfigKey.self] else { fatalError("configure(_:config:dependencies:) was not called") }
            return value
        }
        set { storage[ConfigKey.self] = newValue }
    }
}

extension Request {
    var dependencies: LocifyDependencies { application.dependencies }
    var now: Date { application.dependencies.now() }
}
