import Vapor

extension Request {
    /// `scheme://host` of this server as the client reached it, or `LOCIFY_BASE_URL` when set. Worked
    /// out once per request: a list builds a URL for every item.
    var baseURL: String {
        if let known = storage[BaseURLKey.self] { return known }
        let base: String
        if let configured = application.locifyConfig.publicBaseURL {
            base = configured
        } else {
            let scheme = isSecure ? "https" : "http"
            let host = headers.first(name: .host) ?? "\(application.locifyConfig.host):\(application.locifyConfig.port)"
            base = "\(scheme)://\(host)"
        }
        storage[BaseURLKey.self] = base
        return base
    }

    /// True when the client connected over HTTPS, directly or through a trusted proxy that says so.
    var isSecure: Bool {
        // The peer's address is spelt out only when a proxy's header asks for it to be checked.
        if let forwardedProto = headers.first(name: .xForwardedProto),
            application.locifyConfig.trustedProxies.forwardedOverHTTPS(
                peer: remoteAddress?.ipAddress, forwardedProto: forwardedProto)
        {
            return true
        }
        return application.http.server.configuration.tlsConfiguration != nil
    }

    func absoluteURL(_ site: some SiteAddress) -> String {
        baseURL + site.path
    }

    func absoluteURL(_ site: some SiteAddress, query: [(String, String?)]) -> String {
        baseURL + site.path(query: query)
    }
}

private struct BaseURLKey: StorageKey {
    typealias Value = String
}
