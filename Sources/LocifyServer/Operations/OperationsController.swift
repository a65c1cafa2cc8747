import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// `GET /health` (and `/health/ready`), `GET /health/live`, `GET /metrics` and `GET /openapi.json`.
struct OperationsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(OperationPaths.health, use: readiness)
        routes.get(OperationPaths.readiness, use: readiness)
        routes.get(OperationPaths.liveness, use: liveness)
        routes.get(OperationPaths.metrics, use: metrics)
        routes.get(OperationPaths.openAPI, use: openAPI)
    }

    /// Ready when the database answers and holds every migration this instance knows: one started
    /// against a database another version left behind says so instead of failing requests.
    func readiness(request: Request) async throws -> Response {
        let kind = request.application.locifyConfig.storage.kindName
        var reason: String?
        do {
            let logged = try await request.application.appliedMigrations() ?? []
            let applied = locifyMigrations.filter { logged.contains($0.logName) }.count
            if applied < locifyMigrations.count {
                reason =
                    "The database holds \(applied) of the \(locifyMigrations.count) migrations this version needs: "
                    + "run `locify migrate`."
            }
        } catch {
            request.logger.error("health check: database unreachable: \(String(reflecting: error))")
            reason = "The database cannot be reached: \(String(String(describing: error).prefix(200)))"
        }
        let resource = HealthResource(
            status: reason == nil ? "ok" : "unavailable", database: kind, version: LocifyConfig.version, reason: reason)
        return try await resource.encodeResponse(status: reason == nil ? .ok : .serviceUnavailable, for: request)
    }

    /// Prometheus' text format, for a scraper that sends `LOCIFY_METRICS_TOKEN` as its bearer token. A
    /// request without a bearer token is refused (401) whether metrics are on or not; with one, there is no
    /// such page without the setting (404), and a token that is not it is refused (401).
    func metrics(request: Request) async throws -> Response {
        let given = request.headers.bearerAuthorization?.token
        if given != nil, request.application.locifyConfig.metricsToken == nil { throw Abort(.notFound) }
        guard let given, let token = request.application.locifyConfig.metricsToken,
            // Digests compare in constant time, so the answer's timing tells nothing of the token.
            SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(token.utf8))
        else {
            // A scraper reads no page: a line of text says what is wrong.
            let refusal = Response(status: .unauthorized, body: "/metrics needs the metrics token as a bearer token.\n")
            refusal.headers.replaceOrAdd(name: .wwwAuthenticate, value: #"Bearer realm="metrics""#)
            refusal.headers.contentType = .plainText
            return refusal
        }
        let body = try await ServerMetrics.exposition(of: request.application, on: request.db)
        let response = Response(status: .ok, body: .init(data: Data(body)))
        response.headers.replaceOrAdd(name: .contentType, value: "text/plain; version=0.0.4; charset=utf-8")
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    func liveness(request: Request) async throws -> LivenessResource {
        LivenessResource(version: LocifyConfig.version)
    }

    func openAPI(request: Request) async throws -> Response {
        let today = CalendarDate(request.now, in: .gmt)
        let response = Response(status: .ok, body: .init(data: try OpenAPIDocument.data(today: today)))
        response.headers.contentType = .json
        return response
    }
}

/// The hand-written OpenAPI 3.1 description shipped as a resource; a test checks it names every `/api`
/// route the server registers. The birthday rules depend on the date ("not in the future", "a year up
/// to this one"), so the document holds placeholders that are filled in with today (UTC) when served.
enum OpenAPIDocument {
    /// The last day's document: it is over a megabyte, and only the day changes it.
    private static let served = NIOLockedValueBox<(day: CalendarDate, data: Data)?>(nil)

    static func data(today: CalendarDate) throws -> Data {
        if let served = served.withLockedValue({ $0 }), served.day == today { return served.data }
        let data = try filledIn(today: today)
        served.withLockedValue { $0 = (today, data) }
        return data
    }

    private static func filledIn(today: CalendarDate) throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "OpenAPI") else {
            throw Abort(.internalServerError, reason: "openapi.json is missing from the bundle")
        }
        var text = try String(contentsOf: url, encoding: .utf8)
        for (placeholder, value) in try placeholders(today: today) {
            text = text.replacingOccurrences(of: "\"\(placeholder)\"", with: value)
        }
        return Data(text.utf8)
    }

    /// Each placeholder with the JSON it stands for: a number, or a pattern matching the numbers of a
    /// range written as text (as the API accepts them).
    static func placeholders(today: CalendarDate) throws -> [(String, String)] {
        func pattern(_ values: ClosedRange<Int>?) throws -> String {
            // An empty range matches nothing.
            let body =
                values.map { range in
                    "^[ \\t]*(\\+?0*(" + range.map(String.init).joined(separator: "|") + "))[ \\t]*$"
                } ?? "^(?!)$"
            return String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        }
        return [
            ("__YEAR_RANGE__", try pattern(1...today.year)),
            ("__YEAR_BEFORE_RANGE__", try pattern(today.year > 1 ? 1...(today.year - 1) : nil)),
            ("__YEAR_EXACT__", try pattern(today.year...today.year)),
            ("__MONTH_BEFORE_RANGE__", try pattern(today.month > 1 ? 1...(today.month - 1) : nil)),
            ("__MONTH_EXACT__", try pattern(today.month...today.month)),
            ("__DAY_RANGE__", try pattern(1...today.day)),
            ("__MONTH_BEFORE__", String(today.month - 1)),
            ("__YEAR_BEFORE__", String(today.year - 1)),
            ("__YEAR__", String(today.year)),
            ("__MONTH__", String(today.month)),
            ("__DAY__", String(today.day)),
        ]
    }
}
