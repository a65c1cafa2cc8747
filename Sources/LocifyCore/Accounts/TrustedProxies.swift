import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address as its bytes: 4 for IPv4, 16 for IPv6. An IPv4 address written inside IPv6
/// (`::ffff:192.0.2.1`) is the IPv4 address, so either spelling matches the same proxy.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(_ text: some StringProtocol) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A zone (fe80::1%eth0) names an interface, not a different address.
        let plain = trimmed.split(separator: "%", maxSplits: 1).first.map(String.init) ?? trimmed
        var v4 = in_addr()
        if inet_pton(AF_INET, plain, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, plain, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        bytes = Array(all.prefix(12)) == mappedPrefix ? Array(all.suffix(4)) : all
    }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        let words = stride(from: 0, to: 16, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        // The longest run of two or more zero words is written `::`.
        var best: Range<Int>?
        var start: Int?
        for index in 0...words.count {
            if index < words.count, words[index] == "0" {
                if start == nil { start = index }
            } else if let first = start {
                if index - first >= 2, index - first > (best?.count ?? 0) { best = first..<index }
                start = nil
            }
        }
        guard let best else { return words.joined(separator: ":") }
        let head = words[..<best.lowerBound].joined(separator: ":")
        let tail = words[best.upperBound...].joined(separator: ":")
        return head + "::" + tail
    }
}

/// A network written as an address or `address/prefix`: `10.0.0.0/8`, `192.0.2.7`, `fd00::/8`.
public struct IPNetwork: Hashable, Sendable {
    public let address: IPAddress
    public let prefixLength: Int

    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let first = parts.first, let address = IPAddress(first) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.address = address
    }

    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(address.bytes, candidate.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }
}

/// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (`LOCIFY_TRUSTED_PROXIES`).
/// Anyone can send those headers; only a proxy in front of the server can be trusted to set them, so a
/// client's own claims never choose the address its failed log-ins count against.
public struct TrustedProxies: Sendable, Equatable {
    public let networks: [IPNetwork]

    public static let none = TrustedProxies(networks: [])

    public init(networks: [IPNetwork]) {
        self.networks = networks
    }

    public struct Problem: Error, Equatable {
        /// The entry that is neither an address nor a network.
        public let entry: String
    }

    /// Reads a list separated by commas or spaces; an empty list trusts no one.
    public init(parsing text: String) throws {
        let entries = text.split(whereSeparator: { $0 == "," || $0.isWhitespace })
        networks = try entries.map { entry in
            guard let network = IPNetwork(entry) else { throw Problem(entry: String(entry)) }
            return network
        }
    }

    public func trusts(_ text: String?) -> Bool {
        // Every request that builds a link asks (through `isSecure`): with no proxy, nothing is parsed.
        guard !networks.isEmpty, let text, let address = IPAddress(text) else { return false }
        return networks.contains { $0.contains(address) }
    }

    /// The address of the client: the connection's peer, unless the peer is a trusted proxy; then the
    /// `X-Forwarded-For` entries are walked from the right (the hop nearest this server) past the other
    /// trusted proxies, and the first one left is the client. `forwardedFor` holds the header's values
    /// in the order received.
    public func clientAddress(peer: String?, forwardedFor: [String]) -> String? {
        guard trusts(peer) else { return peer.map(Self.normalized) }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() where !trusts(hop) {
            return Self.normalized(hop)
        }
        return hops.first.map(Self.normalized) ?? peer.map(Self.normalized)
    }

    /// Whether the client reached the proxies over HTTPS, when the peer is one that may say so.
    public func forwardedOverHTTPS(peer: String?, forwardedProto: String?) -> Bool {
        guard let proto = forwardedProto?.split(separator: ",").first, trusts(peer) else { return false }
        return proto.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// One spelling per address, so `::ffff:192.0.2.1` and `192.0.2.1` count as one.
    private static func normalized(_ text: String) -> String {
        IPAddress(text)?.description ?? String(text.prefix(64))
    }
}
