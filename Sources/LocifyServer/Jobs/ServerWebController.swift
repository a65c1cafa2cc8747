import Foundation
import LocifyCore
import Vapor

extension PathParameter {
    static let jobID = PathParameter("jobID")
}

/// Settings → Server, for the accounts named in `LOCIFY_ADMIN_EMAILS`: the background work by kind and
/// state, which instance runs the periodic work, and the failed jobs, each with Retry and Discard.
/// Anyone else finds no such page.
struct ServerWebController: RouteCollection {
    static let retryJob = SitePaths.settingsServer.appending("jobs").appending(.jobID).appending("retry")
    static let discardJob = SitePaths.settingsServer.appending("jobs").appending(.jobID).appending("discard")

    func boot(routes: any RoutesBuilder) throws {
        let admin = routes.grouped(RequireAdministrator())
        admin.get(SitePaths.settingsServer, use: page)
        admin.post(Self.retryJob, use: retry)
        admin.post(Self.discardJob, use: discard)
    }

    func page(request: Request) async throws -> View {
        let administration = request.application.jobAdministration
        let counts = try await administration.counts()
        let failed = try await administration.jobs(in: ["failed"], limit: 100)
        let now = request.dependencies.now()
        let holder = try await Lease.periodicWorkHolder(now: now, on: request.db)
        let config = request.application.locifyConfig
        return try await request.view.render(
            "settings/server",
            ServerPage(
                layout: LayoutContext(title: "Server", section: .settings, session: request.pageSession),
                counts: counts.map { .init(kind: $0.kind, state: $0.state, count: $0.count) },
                failed: failed.map {
                    .init(
                        id: $0.id, kind: $0.kind, attempts: $0.attempts, lastError: $0.lastError ?? "",
                        retryURL: Self.retryJob($0.id).path, discardURL: Self.discardJob($0.id).path)
                },
                periodicHolder: holder, thisInstance: request.application.jobRunner.workerID,
                workers: config.workers, leaseSeconds: Int(config.leaseLifetime),
                jobRetentionDays: Int(config.retention.finishedJobs / 86_400),
                deliveryRetentionDays: Int(config.retention.deliveryLog / 86_400)))
    }

    func retry(request: Request) async throws -> Response {
        try await act(request, "is queued again") { try await $0.retry($1) }
    }

    func discard(request: Request) async throws -> Response {
        try await act(request, "is discarded") { try await $0.discard($1) }
    }

    private func act(
        _ request: Request, _ outcome: String, _ action: (JobAdministration, Int) async throws -> Void
    ) async throws -> Response {
        let id = try request.pathID(.jobID)
        do {
            try await action(request.application.jobAdministration, id)
        } catch let problem as JobAdministration.Problem {
            return request.redirect(to: SitePaths.settingsServer, flash: problem.description)
        }
        return request.redirect(to: SitePaths.settingsServer, flash: "Job \(id) \(outcome).")
    }
}

struct ServerPage: Encodable {
    struct CountRow: Encodable {
        let kind: String
        let state: String
        let count: Int
    }

    struct FailedRow: Encodable {
        let id: Int
        let kind: String
        let attempts: Int
        let lastError: String
        let retryURL: String
        let discardURL: String
    }

    let layout: LayoutContext
    let counts: [CountRow]
    let failed: [FailedRow]
    let periodicHolder: String?
    let thisInstance: String
    let workers: Int
    let leaseSeconds: Int
    let jobRetentionDays: Int
    let deliveryRetentionDays: Int
}

/// Lets through the accounts named in `LOCIFY_ADMIN_EMAILS`; to anyone else the page does not exist.
struct RequireAdministrator: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let user = try request.requireUser()
        guard request.application.locifyConfig.isAdministrator(user) else { throw Abort(.notFound) }
        return try await next.respond(to: request)
    }
}

extension LocifyConfig {
    func isAdministrator(_ user: AuthenticatedUser) -> Bool {
        adminEmails.contains(user.profile.email.lowercased())
    }
}
