import Vapor

extension Request {
    /// The query string's parameters, parsed once per request (first value wins). Vapor's
    /// `query[_:at:]` decodes the whole query string again for every parameter asked for.
    var queryParameters: [String: String] {
        if let parsed = storage[QueryParametersKey.self] { return parsed }
        var parameters: [String: String] = [:]
        for pair in (url.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = parts.first.flatMap(decoded), parameters[name] == nil else { continue }
            parameters[name] = parts.count > 1 ? decoded(parts[1]) ?? "" : ""
        }
        storage[QueryParametersKey.self] = parameters
        return parameters
    }
}

private struct QueryParametersKey: StorageKey {
    typealias Value = [String: String]
}
