import Foundation
import LocifyCore
import Vapor

extension LocifyApp {
    /// `locify export account`: everything the account holds, as Settings → Import and export gives it.
    public static func exportAccount(in app: Application, email: String) async throws -> Data {
        let request = try await request(in: app, actingFor: email)
        return try await AccountArchive.write(request, types: app.syncedTypes)
    }

    /// `locify import account`: an account's export brought into the account; the report's lines, the
    /// summary first. `progress` hears how many of the file's records are done.
    public static func importAccount(
        in app: Application, email: String, file: Data, progress: @escaping @Sendable (Int, Int) -> Void
    ) async throws -> [String] {
        let request = try await request(in: app, actingFor: email)
        let records: [ArchivedRecord]
        do {
            records = try AccountArchive.read(file, types: app.syncedTypes)
        } catch let failure as ValidationFailure {
            throw CommandFailure(failure.errors.map(\.message).joined(separator: " "))
        }
        let report = try await ArchiveImport(
            request: request, ownerID: try request.requireUser().id, types: app.syncedTypes
        )
        .run(records, progress: progress)
        return [report.summary] + report.lines + report.leftOut.map { "Left out: \($0)" }
    }

    /// A request signed in as the account, for the services a command shares with the routes.
    private static func request(in app: Application, actingFor email: String) async throws -> Request {
        let user = try await requireAccount(in: app, email: email)
        let request = Request(
            application: app, method: .GET, url: URI(path: "/"), logger: app.logger, on: app.eventLoopGroup.any())
        request.auth.login(user)
        return request
    }
}
