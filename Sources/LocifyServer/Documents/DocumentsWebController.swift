import LocifyCore
import Vapor

/// The contact page's documents: upload a file, download one (counted, as through the API), delete one.
/// All work without scripts and go back to the contact's page; a refused upload (no file, too large) draws
/// the page again with the problem beside the form.
struct DocumentsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.upload(DocumentPaths.contactDocuments, limit: .document, use: upload)
        routes.get(DocumentPaths.file, use: file)
        routes.post(DocumentPaths.delete, use: delete)
    }

    func upload(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        do {
            let received = try request.documentUpload()
            guard let bytes = received.bytes, !(received.filename ?? "").isEmpty else {
                throw ValidationFailure(field: "document", "Choose a file to upload.")
            }
            let document = try await request.documents().create(
                contactID: contactID, bytes: bytes, filename: received.filename, mimeType: received.mimeType)
            return request.redirect(
                to: ContactPaths.contact(contactID).path + "#documents",
                flash: "\(document.originalFilename) was added.")
        } catch let failure as any AppFailure where failure.kind != .notFound {
            // No file, too large, or not a readable form: said beside the upload, with its own status (413
            // for too large), which is why this form does not go through `handleContactForm`.
            return try await ContactPage.redraw(
                request, contactID,
                FormProblem(form: .document, itemID: nil, message: failure.plainMessage, typed: [:]),
                status: failure.kind.status)
        }
    }

    func file(request: Request) async throws -> Response {
        try await request.documentDownload(try request.pathID(.documentID))
    }

    func delete(request: Request) async throws -> Response {
        let documents = try request.documents()
        let document = try await documents.document(try request.pathID(.documentID))
        try await documents.delete(document.id)
        return request.redirect(
            to: ContactPaths.contact(document.contactID).path + "#documents",
            flash: "\(document.originalFilename) was deleted.")
    }
}

extension FormName {
    static let document = FormName("document")
}

/// One document as the contact page lists it.
struct DocumentLine: Encodable {
    let id: Int
    let name: String
    let details: String
    let fileURL: String
    let deleteURL: String

    init(_ document: Document, timeZone: TimeZone) {
        id = document.id
        name = document.originalFilename
        let day = CalendarDate(document.createdAt, in: timeZone).dayMonthYear
        let downloads =
            document.downloads == 0
            ? "" : document.downloads == 1 ? ", downloaded once" : ", downloaded \(document.downloads) times"
        details = "\(FileSize.text(document.byteCount)), added \(day)\(downloads)"
        fileURL = DocumentPaths.file(document.id).path
        deleteURL = DocumentPaths.delete(document.id).path
    }
}

/// The contact page's documents, newest first, and the form that uploads one.
struct ContactDocumentsSection: Encodable {
    static let shownOnPage = 50

    let items: [DocumentLine]
    let uploadURL: String
    let fileField: FormField
    let isAdding: Bool

    /// `timeZone` is the owner's, for the day each was added.
    init(contact: Contact, documents: [Document], timeZone: TimeZone, maximumBytes: Int, problem: FormProblem?) {
        items = documents.map { DocumentLine($0, timeZone: timeZone) }
        uploadURL = DocumentPaths.contactDocuments(contact.id).path
        let error = problem?.message(for: .document)
        isAdding = error != nil
        fileField = FormField(
            "document", label: "File", control: .file, error: error,
            hint: "Any kind of file, up to \(maximumBytes / (1024 * 1024)) MB.", isRequired: true
        ).identified(as: "document-file")
    }
}
