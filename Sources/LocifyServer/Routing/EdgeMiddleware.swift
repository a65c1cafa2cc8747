@preconcurrency import RoutingKit
import Vapor

/// Headers every response carries, pages, API answers, files and errors alike: the security headers,
/// and the request id (Vapor puts it in every log line of the request) so a user's report can be
/// matched to the logs.
struct ResponseHeadersMiddleware: Middleware {
    /// No inline script or style anywhere: pages load `/js` and `/css` from this origin only.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
        // Places will ask for the visitor's position; nothing else may, and no other origin.
        ("Permissions-Policy", "geolocation=(self), camera=(), microphone=(), payment=(), usb=()"),
    ]

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).map { response in
            for (name, value) in Self.securityHeaders {
                // A page holding a secret in its address (a public link's token) sends no referrer at all.
                if name == "Referrer-Policy", response.headers.contains(name: name) { continue }
                response.headers.replaceOrAdd(name: name, value: value)
            }
            response.headers.replaceOrAdd(name: .xRequestId, value: request.id)
            return response
        }
    }
}

/// The bundled stylesheet, script and icon. Only their paths touch the file system: Vapor's
/// `FileMiddleware` would look for a file on disk for every API request too.
struct StaticFilesMiddleware: Middleware {
    /// Every file in `Resources/Public`, by the path its links use.
    static let paths: Set<String> = Set(
        ([SitePaths.stylesheet, SitePaths.favicon] + SitePaths.appIcons + LayoutContext.scripts).map(\.path))
    let files: FileMiddleware

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory, cachePolicy: .browserDefault)
    }

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard Self.paths.contains(request.url.path) else { return next.respond(to: request) }
        return files.respond(to: request, chainingTo: next)
    }
}

/// A known path asked with a method it does not serve answers 405 with `Allow`, not 404.
struct MethodNotAllowedMiddleware: Middleware {
    let methodsByPath: TrieRouter<[HTTPMethod]>
    /// Endings of a last segment that name a file in a parameter's place (`/api/map-areas/{id}.pmtiles`):
    /// such a file answers GET and HEAD alone, whatever else the parameter's route takes.
    let fileSuffixes: [String]

    /// Built once from the registered routes.
    init(routes: Routes, fileSuffixes: [String] = []) {
        self.fileSuffixes = fileSuffixes
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

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapErrorThrowing { error in
            guard error is RouteNotFound || error is PathIDNotANumber else { throw error }
            var parameters = Parameters()
            let components = request.url.path.split(separator: "/").map(String.init)
            // `/api/reminders/timeline` is a GET route of its own, though PUT `/api/reminders/{id}` took it.
            guard var allowed = methodsByPath.route(path: components, parameters: &parameters) else {
                throw AppError.notFound
            }
            if let last = components.last, fileSuffixes.contains(where: last.hasSuffix) {
                allowed.removeAll { $0 != .GET && $0 != .HEAD }
            }
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw AppError.notFound }
            throw RoutingError.methodNotAllowed(allowed: allowed.map(\.rawValue))
        }
    }
}

enum RoutingError: AppFailure {
    case methodNotAllowed(allowed: [String])

    var kind: FailureKind {
        switch self {
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        }
    }

    var messages: [String] { ["Method Not Allowed"] }
}

extension Bundle {
    /// The server's resources (views, public files, the API description), for code outside the module.
    static var locifyServerResources: URL? { Bundle.module.resourceURL }
}
