import XCTest

@testable import LocifyCore

final class AccountRulesTests: XCTestCase {
    func testAccountDraftValidation() throws {
        let profile = try AccountDraft(
            name: " Ada  Lovelace ", email: "ADA@example.com", timezone: "Europe/London", mapsApp: "google"
        ).validated()
        XCTAssertEqual(profile.email, "ada@example.com")
        XCTAssertEqual(profile.timezone, "Europe/London")
        XCTAssertEqual(profile.mapsApp, .googleMaps)
        XCTAssertEqual(profile.firstName, "Ada")
        XCTAssertEqual(profile.lastName, "Lovelace")
        XCTAssertEqual(AccountProfile(name: "Cher", email: "c@example.com").lastName, nil)

        XCTAssertThrowsError(
            try AccountDraft(name: "", email: "x", timezone: "Nowhere/Land", mapsApp: "bing").validated()
        ) { error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.errors.map(\.field), ["name", "email", "timezone", "maps_app"])
        }
        XCTAssertEqual(try AccountDraft(name: "A", email: "a@b.co").validated().timezone, "UTC")
        XCTAssertEqual(TimeZones.identifiers.first, "UTC")
        XCTAssertTrue(TimeZones.isKnown("America/Argentina/Buenos_Aires"))
        XCTAssertGreaterThan(TimeZones.identifiers.count, 300)
    }

    func testPasswordRules() {
        XCTAssertEqual(PasswordRules.problem(with: "1234567"), "Password must be at least 8 characters.")
        XCTAssertNil(PasswordRules.problem(with: "12345678"))
        XCTAssertEqual(
            PasswordRules.problem(with: String(repeating: "é", count: 40)), "Password must be at most 72 bytes.")
    }

    func testEmailPlausibility() {
        for good in ["a@b.co", "first.last+tag@sub.example.org"] { XCTAssertTrue(EmailAddress.isPlausible(good), good) }
        for bad in ["", "a@", "@b.co", "a b@c.de", "a@b", "a@b..c", "a@@b.co"] {
            XCTAssertFalse(EmailAddress.isPlausible(bad), bad)
        }
    }

    func testRegistrationPolicy() {
        XCTAssertTrue(RegistrationPolicy.closed.allowsRegistration(existingUserCount: 0))
        XCTAssertFalse(RegistrationPolicy.closed.allowsRegistration(existingUserCount: 1))
        XCTAssertTrue(RegistrationPolicy.open.allowsRegistration(existingUserCount: 10))
    }

    func testPersonalTokens() {
        var generator = SeededGenerator(seed: 42)
        let token = PersonalToken.generate(using: &generator)
        XCTAssertEqual(token.count, 48)
        XCTAssertTrue(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        XCTAssertNotEqual(PersonalToken.generate(), PersonalToken.generate())
        XCTAssertEqual(PersonalToken.digest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertTrue(PersonalToken.hasAcceptableShape(token))
        XCTAssertTrue(PersonalToken.hasAcceptableShape("eyJ0eXAiOiJKV1Qi.abc-def_ghi~+/="))
        XCTAssertFalse(PersonalToken.hasAcceptableShape("short"))
        XCTAssertFalse(PersonalToken.hasAcceptableShape(String(repeating: "a", count: 30) + " "))
    }

    func testLoginThrottleCountsPerKeyInASlidingWindow() {
        var throttle = LoginThrottle(limit: 5, window: 60)
        let start = Date(timeIntervalSince1970: 1_000_000)
        for second in 0..<4 { throttle.recordFailure(for: ["email:a", "ip:1"], now: start + Double(second)) }
        XCTAssertNil(throttle.retryAfter(for: ["email:a", "ip:1"], now: start + 4))
        throttle.recordFailure(for: ["email:a", "ip:1"], now: start + 10)
        // Locked until the oldest of the five failures is a minute old.
        XCTAssertEqual(throttle.retryAfter(for: ["email:a"], now: start + 10), 50)
        XCTAssertEqual(
            throttle.retryAfter(for: ["email:other", "ip:1"], now: start + 10), 50, "the address is locked too")
        XCTAssertNil(throttle.retryAfter(for: ["email:b", "ip:2"], now: start + 10))
        XCTAssertNil(throttle.retryAfter(for: ["email:a"], now: start + 60.5))
        throttle.recordSuccess(for: "email:a")
        XCTAssertNil(throttle.retryAfter(for: ["email:a"], now: start + 11))
    }
}

/// A deterministic generator (SplitMix64) for tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
