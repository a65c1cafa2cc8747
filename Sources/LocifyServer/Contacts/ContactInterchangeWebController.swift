import LocifyCore
import Vapor

/// Settings → Import and export: every contact as one vCard file, and a vCard file in, with a report.
struct ContactInterchangeWebController: RouteCollection {
    /// Phones' exports of a few thousand contacts with photos stay well below this.
    static let maximumImportMegabytes = 32

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.settingsExport, use: export)
        routes.upload(SitePaths.settingsImport, limit: .megabytes(Self.maximumImportMegabytes), use: importFile)
    }

    struct ImportForm: Content {
        var file: File?
    }

    func export(request: Request) async throws -> Response {
        VCardDownloads.response(try await request.contactInterchange().exportVCards(), named: "locify-contacts")
    }

    func importFile(request: Request) async throws -> Response {
        let form = try await request.decodedUpload(ImportForm.self)
        guard let file = form.file, file.data.readableBytes > 0 else {
            throw ValidationFailure(field: "file", "Choose a vCard file to import.")
        }
        guard let text = file.data.getString(at: file.data.readerIndex, length: file.data.readableBytes) else {
            throw ValidationFailure(field: "file", "The file is not text; a vCard file is.")
        }
        let report = try await request.contactInterchange().importVCards(text)
        return try await request.view.render(
            "settings/import", ImportReportPage.Context(report: report, session: request.pageSession)
        ).encodeResponse(for: request)
    }
}

/// The page after an import: how many came in, and each card or address left out with the reason.
enum ImportReportPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let summary: String
        let imported: [String]
        let skipped: [String]
        let contactsURL: String
        let settingsURL: String

        init(report: ImportReport, session: PageSession) {
            layout = LayoutContext(title: "Import", section: .settings, session: session)
            summary = report.summary
            imported = report.importedNames
            skipped = report.skipped.map(\.sentence)
            contactsURL = SitePaths.contacts.path
            settingsURL = SitePaths.settings.path
        }
    }
}
