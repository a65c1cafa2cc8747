@preconcurrency import RoutingKit
import Vapor

/// Security headers on every response, pages, API answers, files and errors alike.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    /// No inline script or style anywhere: pages load `/js` and `/css` from this origin only.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        let headers: [(String, String)] = [
            ("Content-Security-Policy", Self.contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
            // Places will ask for the visitor's position; nothing else may, and no other origin.
            ("Permissions-Policy", "geolocation=(self), camera=(), microphone=(), payment=(), usb=()"),
        ]
        for (name, value) in headers {
            response.headers.replaceOrAdd(name: name, value: value)
        }
        return response
    }
}

/// A known path asked with a method it does not serve answers 405 with `Allow`, not 404.
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    let methodsByPath: TrieRouter<[HTTPMethod]>

    /// Built once from the registered routes.
    init(routes: Routes) {
        var methods: [String: (path: [PathComponent], methods: [HTTPMethod])] = [:]
        // The root path cannot go in a trie; it only answers GET and is left to the 404.
        for route in routes.all where !route.path.isEmpty {
            let key = route.path.string
            methods[key, default: (route.path, [])].methods.append(route.method)
        }
        let router = TrieRouter<[HTTPMethod]>()
        for (path, allowed) in methods.values {
            var list = allowed
            if list.contains(.GET), !list.contains(.HEAD) { list.append(.HEAD) }
            router.register(list, at: path)
        }
        methodsByPath = router
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as RouteNotFound {
            var parameters = Parameters()
            let components = request.url.path.split(separator: "/").map(String.init)
            guard let allowed = methodsByPath.route(path: components, parameters: &parameters), !allowed.isEmpty else {
                throw error
            }
            let value = allowed.map(\.rawValue).joined(separator: ", ")
            throw Abort(.methodNotAllowed, headers: ["Allow": value])
        }
    }
}
