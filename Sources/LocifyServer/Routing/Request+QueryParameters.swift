import Vapor

/// `application/x-www-form-urlencoded` text (a query string or a form body) as name → value, the first
/// value of a name winning. Read pair by pair, so names Vapor's form decoder would take for nested
/// arrays (`a[b]`) are just names, and a malformed pair is skipped rather than failing the rest.
enum URLEncodedPairs {
    static func firstValues(in text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? {
                // Most parameters (`page=2`, `limit=15`) need no decoding, and Foundation's is slow.
                guard part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
                    return String(part)
                }
                return part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = parts.first.flatMap(decoded), values[name] == nil else { continue }
            values[name] = parts.count > 1 ? decoded(parts[1]) ?? "" : ""
        }
        return values
    }

    /// The names given more than once (`page=2&page=3`).
    static func repeatedNames(in text: String) -> Set<String> {
        var seen: Set<Substring> = []
        var repeated: Set<String> = []
        for pair in text.split(separator: "&") {
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if !seen.insert(name).inserted { repeated.insert(String(name).removingPercentEncoding ?? String(name)) }
        }
        return repeated
    }
}

extension Request {
    /// The query string's parameters, parsed once per request. Vapor's `query[_:at:]` decodes the
    /// whole query string again for every parameter asked for.
    var queryParameters: [String: String] {
        if let parsed = storage[QueryParametersKey.self] { return parsed }
        let parameters = URLEncodedPairs.firstValues(in: url.query ?? "")
        storage[QueryParametersKey.self] = parameters
        return parameters
    }
}

private struct QueryParametersKey: StorageKey {
    typealias Value = [String: String]
}
