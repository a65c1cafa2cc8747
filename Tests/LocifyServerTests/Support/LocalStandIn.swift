import Foundation
import NIOConcurrencyHelpers
import Vapor

/// A real HTTP server on a free local port that plays an outside service (tile server, Gravatar, a
/// webhook target) for one test, and keeps every request it received.
final class LocalStandIn: Sendable {
    struct Received: Sendable {
        let method: HTTPMethod
        let path: String
        let query: String?
        let headers: HTTPHeaders
        let body: Data
        let receivedAt: ContinuousClock.Instant
    }

    private let app: Application
    private let received = NIOLockedValueBox<[Received]>([])
    let baseURL: String

    var requests: [Received] { received.withLockedValue { $0 } }

    /// `routes` registers the answers; every request is recorded before it reaches them.
    static func start(_ routes: (any RoutesBuilder) throws -> Void) async throws -> LocalStandIn {
        let app = try await Application.make(.testing)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        let recorder = Recorder()
        app.middleware.use(recorder)
        try routes(app)
        do {
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        guard let port = app.http.server.shared.localAddress?.port else {
            try? await app.asyncShutdown()
            throw Abort(.internalServerError, reason: "the stand-in has no port")
        }
        let standIn = LocalStandIn(app: app, baseURL: "http://127.0.0.1:\(port)")
        recorder.box.withLockedValue { $0 = standIn.received }
        return standIn
    }

    private init(app: Application, baseURL: String) {
        self.app = app
        self.baseURL = baseURL
    }

    func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    private final class Recorder: AsyncMiddleware, Sendable {
        let box = NIOLockedValueBox<NIOLockedValueBox<[Received]>?>(nil)

        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            let body = try await request.body.collect(upTo: 16 * 1024 * 1024)
            let received = Received(
                method: request.method, path: request.url.path, query: request.url.query, headers: request.headers,
                body: Data(buffer: body), receivedAt: .now)
            box.withLockedValue { $0 }?.withLockedValue { $0.append(received) }
            return try await next.respond(to: request)
        }
    }
}

typealias StandInRoutes = (any RoutesBuilder) throws -> Void

/// Runs `body` with a stand-in, stopping it afterwards whatever happens.
func withStandIn(
    _ routes: StandInRoutes, _ body: (LocalStandIn) async throws -> Void
) async throws {
    let standIn = try await LocalStandIn.start(routes)
    do {
        try await body(standIn)
    } catch {
        await standIn.stop()
        throw error
    }
    await standIn.stop()
}
