import Foundation
import LocifyCore
import Vapor

/// Settings → Import and export: the whole account as one JSON file, and such a file (from this server
/// or another) brought into the signed-in account, with a report.
struct AccountArchiveWebController: RouteCollection {
    /// An account of 10,000 contacts and 10,000 places with a few hundred photos stays well below this.
    static let maximumImportMegabytes = 256

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.settingsExportAccount, use: export)
        routes.upload(
            SitePaths.settingsImportAccount, limit: .megabytes(Self.maximumImportMegabytes), use: importArchive)
    }

    struct ImportForm: Content {
        var file: File?
    }

    func export(request: Request) async throws -> Response {
        let archive = try await AccountArchive.write(request, types: request.application.syncedTypes)
        let response = Response(status: .ok, body: .init(data: archive))
        response.headers.contentType = .json
        response.headers.replaceOrAdd(
            name: .contentDisposition,
            value: "attachment; filename=\"\(AccountArchive.fileName(at: request.dependencies.now()))\"")
        return response
    }

    func importArchive(request: Request) async throws -> Response {
        let form = try await request.decodedUpload(ImportForm.self)
        guard let file = form.file, file.data.readableBytes > 0 else {
            throw ValidationFailure(field: "file", "Choose the account file to import (locify-account-….json).")
        }
        let types = request.application.syncedTypes
        let records = try AccountArchive.read(Data(buffer: file.data), types: types)
        let report = try await ArchiveImport(request: request, ownerID: try request.requireUser().id, types: types)
            .run(records)
        request.application.jobWorkers?.nudge()
        return try await request.view.render(
            "settings/account-import", AccountImportPage.Context(report: report, session: request.pageSession)
        ).encodeResponse(for: request)
    }
}

/// The page after an account's import: how many records came in, type by type, and each one left out
/// with the reason.
enum AccountImportPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let summary: String
        let types: [String]
        let leftOut: [String]
        let contactsURL: String
        let settingsURL: String

        init(report: ArchiveImportReport, session: PageSession) {
            layout = LayoutContext(title: "Account import", section: .settings, session: session)
            summary = report.summary
            types = report.lines
            leftOut = report.leftOut
            contactsURL = SitePaths.contacts.path
            settingsURL = SitePaths.settings.path
        }
    }
}
