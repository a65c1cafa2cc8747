import Crypto
import Foundation

/// Signs links to pictures so an image loader that cannot send credentials (an `<img>` in a mail, a
/// client's image cache) may fetch them: HMAC-SHA256 over what the link names and when it expires, with
/// a secret only the server knows.
public struct LinkSigner: @unchecked Sendable {
    // HMAC's two hashes each start from a block made of the key; those starts are worked out once, so a
    // signature costs two short hashes (a list of a hundred contacts signs a hundred links). Immutable
    // after init, which is why the hashers, not marked Sendable by Crypto, may be shared.
    private let innerStart: SHA256
    private let outerStart: SHA256

    /// How long a link works: about a week. Expiry is rounded up to a whole day so the same picture keeps
    /// the same link all day and browsers reuse their cached copy.
    public static let lifetime: TimeInterval = 7 * 86_400

    public init(secret: Data) {
        var key = [UInt8](secret)
        if key.count > 64 { key = Array(SHA256.hash(data: key)) }
        key += [UInt8](repeating: 0, count: 64 - key.count)
        var inner = SHA256()
        inner.update(data: key.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(data: key.map { $0 ^ 0x5c })
        innerStart = inner
        outerStart = outer
    }

    /// The expiry of links made at `now`: between 7 and 8 days later, at a whole day (UTC).
    public static func expiry(now: Date) -> Int {
        let day = 86_400
        let seconds = Int(now.timeIntervalSince1970)
        return (seconds / day + 1) * day + Int(lifetime)
    }

    /// The signature of `subject` (what the link names, e.g. `avatar:12:v3a…`) until `expires`: HMAC-SHA256,
    /// its first 128 bits in hex, plenty for a link and short in URLs.
    public func signature(of subject: String, expires: Int) -> String {
        var inner = innerStart
        inner.update(data: Array("\(subject)|\(expires)".utf8))
        var outer = outerStart
        outer.update(data: Array(inner.finalize()))
        let code = outer.finalize()
        var hex = [UInt8]()
        hex.reserveCapacity(32)
        for byte in code.prefix(16) {
            hex.append(Self.hexDigits[Int(byte >> 4)])
            hex.append(Self.hexDigits[Int(byte & 0xf)])
        }
        return String(decoding: hex, as: UTF8.self)
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

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
