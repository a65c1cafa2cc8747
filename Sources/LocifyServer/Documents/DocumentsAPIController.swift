import LocifyAPI
import LocifyCore
import Vapor

/// `/api/documents`, `/api/contacts/{id}/documents` and `GET /api/documents/{id}/file`: Monica's document
/// routes (no update, as in Monica). An upload is a multipart form with the file as `document` and the
/// contact as `contact_id`, refused as soon as it passes `LOCIFY_MAX_PHOTO_MB`.
struct DocumentsAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(DocumentPaths.api, use: index)
        routes.upload(DocumentPaths.api, limit: .document, use: create)
        routes.get(DocumentPaths.apiDocument, use: show)
        routes.delete(DocumentPaths.apiDocument, use: delete)
        routes.get(DocumentPaths.apiDocumentFile, use: file)
        routes.get(DocumentPaths.apiContactDocuments, use: indexOfContact)
    }

    func index(request: Request) async throws -> PageResource<DocumentResource> {
        try await page(request, contactID: try request.contactFilter(), path: DocumentPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<DocumentResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: DocumentPaths.apiContactDocuments(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        DocumentResource
    > {
        let query = try ListQuery(from: request, defaultSort: DocumentService.defaultSort)
        let (documents, window) = try await request.documents().page(
            contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.documentResources(documents), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<DocumentResource> {
        let document = try await request.documents().document(try request.pathID(.documentID))
        return DataEnvelope(data: try await request.documentResources([document])[0])
    }

    func create(request: Request) async throws -> Response {
        let upload = try request.documentUpload()
        let documents = try request.documents()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: DocumentsTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.documentResources([try await documents.document($0)])[0])
        } create: {
            let document = try await documents.create(
                contactID: upload.contactID, bytes: upload.bytes, filename: upload.filename,
                mimeType: upload.mimeType, typeErrors: upload.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.documentResources([document])[0])
        }
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.documentID)
        try await request.documents().delete(id)
        return DeletedResource(id: id)
    }

    func file(request: Request) async throws -> Response {
        try await request.documentDownload(try request.pathID(.documentID))
    }
}

/// A document as it arrived, before it is checked.
struct ReceivedDocument {
    let bytes: [UInt8]?
    let filename: String?
    let mimeType: String?
    let contactID: Int?
    let typeErrors: [FieldError]
}

/// A file over `LOCIFY_MAX_PHOTO_MB`: 413, before the rest of the body is read when its length is known.
struct DocumentTooLarge: AppFailure, Equatable {
    let maximumBytes: Int
    var kind: FailureKind { .tooLarge }
    var messages: [String] { ["The document is larger than \(maximumBytes / (1024 * 1024)) MB."] }
}

extension BodyLimit {
    /// A document in a multipart form, with room for the form's other fields.
    static let document = BodyLimit(
        bytes: { $0.locifyConfig.maximumPhotoBytes + 64 * 1024 },
        tooLarge: { DocumentTooLarge(maximumBytes: $0.locifyConfig.maximumPhotoBytes) })
}

/// The multipart form of an upload: the file as `document`, and the contact.
struct DocumentForm: Content {
    var document: File?
    var contactID: String?

    enum CodingKeys: String, CodingKey {
        case document
        case contactID = "contact_id"
    }
}

extension Request {
    /// The signed-in user's documents.
    func documents() throws -> DocumentService {
        DocumentService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each document with its contact, the contacts read in one query.
    func documentResources(_ documents: [Document]) async throws -> [DocumentResource] {
        let base = baseURL
        return try await resources(documents, contactOf: \.contactID) { document, contact in
            DocumentResource(
                document, link: base + DocumentPaths.apiDocumentFile(document.id).path,
                url: base + DocumentPaths.apiDocument(document.id).path, contact: contact)
        }
    }

    /// The file as it was sent, to be saved rather than shown (`attachment`), its name as it came; the
    /// download is counted (Monica's `number_of_downloads`).
    func documentDownload(_ id: Int) async throws -> Response {
        let (document, bytes) = try await documents().download(id)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: document.mimeType)
        let asciiName = String(document.originalFilename.unicodeScalars.map { $0.isASCII ? Character($0) : "_" })
        let encodedName =
            document.originalFilename.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "document"
        headers.replaceOrAdd(
            name: .contentDisposition, value: #"attachment; filename="\#(asciiName)"; filename*=UTF-8''\#(encodedName)"#
        )
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
        return Response(status: .ok, headers: headers, body: .init(data: Data(bytes)))
    }

    /// The upload in the body: a multipart form (a body of another kind holds no file).
    func documentUpload() throws -> ReceivedDocument {
        let maximum = application.locifyConfig.maximumPhotoBytes
        guard headers.contentType?.type == "multipart", let data = body.data, data.readableBytes > 0 else {
            return ReceivedDocument(bytes: nil, filename: nil, mimeType: nil, contactID: nil, typeErrors: [])
        }
        if let length = declaredBodyLength, length > maximum + 64 * 1024 {
            throw DocumentTooLarge(maximumBytes: maximum)
        }
        let form: DocumentForm
        do {
            form = try content.decode(DocumentForm.self)
        } catch {
            throw UnreadableUpload()
        }
        var problems: [FieldError] = []
        let contactID = LooseValue.integer(form.contactID, field: "contact_id", label: "Contact", problems: &problems)
        let bytes = form.document.map { Array($0.data.readableBytesView) }
        if let bytes, bytes.count > maximum { throw DocumentTooLarge(maximumBytes: maximum) }
        return ReceivedDocument(
            bytes: bytes, filename: form.document?.filename, mimeType: form.document?.contentType?.serialize(),
            contactID: contactID, typeErrors: problems)
    }
}
