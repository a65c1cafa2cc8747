import Fluent
import Foundation
import LocifyAPI
import SQLKit
import Vapor

/// `GET /health` and `GET /openapi.json`.
struct OperationsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.health.pathComponents, use: health)
        routes.get(SiteURL.openAPI.pathComponents, use: openAPI)
    }

    func health(request: Request) async throws -> Response {
        let kind = request.application.locifyConfig.storage.kindName
        var status = "ok"
        do {
            guard let sql = request.db as? any SQLDatabase else { throw Abort(.internalServerError) }
            _ = try await sql.raw("SELECT 1 AS alive").first()
        } catch {
            request.logger.error("health check: database unreachable: \(String(reflecting: error))")
            status = "unavailable"
        }
        let resource = HealthResource(status: status, database: kind, version: LocifyConfig.version)
        return try await resource.encodeResponse(status: status == "ok" ? .ok : .serviceUnavailable, for: request)
    }

    func openAPI(request: Request) async throws -> Response {
        let response = Response(status: .ok, body: .init(data: try OpenAPIDocument.data()))
        response.headers.contentType = .json
        return response
    }
}

/// The hand-written OpenAPI 3.1 description shipped as a resource; a test checks it names every `/api`
/// route the server registers.
enum OpenAPIDocument {
    static func data() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "OpenAPI") else {
            throw Abort(.internalServerError, reason: "openapi.json is missing from the bundle")
        }
        return try Data(contentsOf: url)
    }
}

/// Echoes the request id (Vapor puts it in every log line of the request) so a user's report can be
/// matched to the logs.
struct RequestIDMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            let response = try await next.respond(to: request)
            response.headers.replaceOrAdd(name: .xRequestId, value: request.id)
            return response
        }
    }
}
