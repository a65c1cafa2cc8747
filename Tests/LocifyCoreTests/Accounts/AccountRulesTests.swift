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
        for bad in ["", "a@", "@b.co", "a b@c.de", "a@b", "a@b..c", "a@@b.co", "a\u{2003}b@c.de"] {
            XCTAssertFalse(EmailAddress.isPlausible(bad), bad)
        }
        // Read by code points, as the API's schema reads it: an `@` or a `.` followed by a combining mark
        // (one character with it) is still there.
        for good in ["v@\u{1F3FB}.example.org", "a@b.\u{301}c"] {
            XCTAssertTrue(EmailAddress.isPlausible(good), good)
        }
        // A mailbox is what a mail command takes: a server's own address too, never a header's brackets.
        for good in ["admin@localhost", "a@b.co"] { XCTAssertTrue(EmailAddress.isMailbox(good), good) }
        for bad in ["admin", "a@", "@b", "a b@c", "Ada <a@b.co>", "a@b@c"] {
            XCTAssertFalse(EmailAddress.isMailbox(bad), bad)
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

    func testLoginThrottleLocksAKeyWithFiveFailuresInAMinute() {
        let throttle = LoginThrottle(limit: 5, window: 60)
        let start = Date(timeIntervalSince1970: 1_000_000)
        let four = (0..<4).map { start + Double($0) }
        XCTAssertNil(throttle.retryAfter(failures: ["email:a": four, "ip:1": four], now: start + 4))
        let five = four + [start + 10]
        // Locked until the oldest of the five failures is a minute old, in whatever order they are read.
        XCTAssertEqual(throttle.retryAfter(failures: ["email:a": five.reversed()], now: start + 10), 50)
        XCTAssertEqual(
            throttle.retryAfter(failures: ["email:other": [], "ip:1": five], now: start + 10), 50,
            "the address is locked too")
        XCTAssertNil(throttle.retryAfter(failures: ["email:a": five], now: start + 60.5))
        XCTAssertEqual(throttle.windowStart(now: start + 60), start)
        XCTAssertEqual(
            LoginThrottle.keys(email: " Ada@Example.COM", address: "192.0.2.1"),
            ["email:" + PersonalToken.digest("ada@example.com"), "ip:192.0.2.1"])
    }

    func testTrustedProxiesChooseWhichForwardedAddressIsTheClient() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8, 192.0.2.7 fd00::/8")
        // A peer that is no proxy is the client, whatever it claims.
        XCTAssertEqual(proxies.clientAddress(peer: "198.51.100.4", forwardedFor: ["203.0.113.1"]), "198.51.100.4")
        XCTAssertEqual(TrustedProxies.none.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.2.3.4"]), "127.0.0.1")
        // Through two trusted proxies: the first untrusted hop from the right is the client; what the client
        // wrote to the left of it is not believed.
        XCTAssertEqual(
            proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["6.6.6.6, 203.0.113.9", "192.0.2.7"]),
            "203.0.113.9")
        XCTAssertEqual(proxies.clientAddress(peer: "fd00::1", forwardedFor: []), "fd00::1")
        XCTAssertEqual(
            proxies.clientAddress(peer: "::ffff:10.0.0.1", forwardedFor: ["2001:DB8:0:0:0:0:0:1"]), "2001:db8::1",
            "IPv4 inside IPv6 is the same proxy; addresses are written one way")
        XCTAssertTrue(proxies.forwardedOverHTTPS(peer: "10.9.9.9", forwardedProto: "https"))
        XCTAssertFalse(proxies.forwardedOverHTTPS(peer: "11.9.9.9", forwardedProto: "https"))
        XCTAssertFalse(proxies.trusts("10.0.0"))
        XCTAssertTrue(IPNetwork("0.0.0.0/0")?.contains(IPAddress("8.8.8.8")!) == true)
        XCTAssertFalse(IPNetwork("10.0.0.0/9")?.contains(IPAddress("10.128.0.1")!) == true)
        XCTAssertThrowsError(try TrustedProxies(parsing: "10.0.0.0/33")) {
            XCTAssertEqual($0 as? TrustedProxies.Problem, TrustedProxies.Problem(entry: "10.0.0.0/33"))
        }
        XCTAssertThrowsError(try TrustedProxies(parsing: "proxy.example.org"))
        XCTAssertEqual(try TrustedProxies(parsing: " ").networks, [])
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
