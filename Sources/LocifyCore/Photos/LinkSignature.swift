import Crypto
import Foundation

/// Signs links to pictures so an image loader that cannot send credentials (an `<img>` in a mail, a
/// client's image cache) may fetch them: HMAC-SHA256 over what the link names and when it expires, with
/// a secret only the server knows.
public struct LinkSigner: Sendable {
    // Kept as bytes: Crypto's key type is not Sendable, and making one per signature costs nothing.
    private let secret: Data

    /// How long a link works: about a week. Expiry is rounded up to a whole day so the same picture keeps
    /// the same link all day and browsers reuse their cached copy.
    public static let lifetime: TimeInterval = 7 * 86_400

    public init(secret: Data) {
        self.secret = secret
    }

    /// A new random secret of 32 bytes.
    public static func newSecret() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }

    /// The expiry of links made at `now`: between 7 and 8 days later, at a whole day (UTC).
    public static func expiry(now: Date) -> Int {
        let day = 86_400
        let seconds = Int(now.timeIntervalSince1970)
        return (seconds / day + 1) * day + Int(lifetime)
    }

    /// The signature of `subject` (what the link names, e.g. `avatar:12:v3a…`) until `expires`.
    public func signature(of subject: String, expires: Int) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(subject)|\(expires)".utf8), using: SymmetricKey(data: secret))
        // 128 bits are plenty for a link and keep URLs short.
        return code.prefix(16).map { Self.hexDigits[Int($0 >> 4)] + Self.hexDigits[Int($0 & 0xf)] }.joined()
    }

    public enum Verdict: Equatable, Sendable {
        case valid
        case expired
        case forged
    }

    /// Whether `signature` was made by this server for `subject` and `expires`, and is still in time.
    /// Compared in constant time, so timing tells nothing about a forged signature.
    public func verify(_ signature: String, of subject: String, expires: Int, now: Date) -> Verdict {
        let expected = Array(self.signature(of: subject, expires: expires).utf8)
        let given = Array(signature.lowercased().utf8)
        guard given.count == expected.count else { return .forged }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        guard difference == 0 else { return .forged }
        // The expiry is part of what was signed, so a valid signature also proves the expiry is ours.
        let seconds = Int(now.timeIntervalSince1970)
        return expires < seconds ? .expired : .valid
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16) }
}
