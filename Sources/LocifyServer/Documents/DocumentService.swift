import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Documents of one owner's contacts, in the shape of `PhotoService`: the bytes go to `PhotoBlobs`,
/// once per account and digest.
struct DocumentService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    static let defaultSort = ListSort(TimestampSortField.createdAt)
    private static let columns = DocumentsTable.documentColumns

    /// One page of the owner's documents, of one contact when `contactID` is given.
    func page(contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection) async throws -> (
        [Document], PageWindow
    ) {
        try await database.ownedChildPage(
            table: DocumentsTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: DocumentsTable.document(from:))
    }

    func document(_ id: Int) async throws -> Document {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: DocumentsTable.self, selecting: Self.columns, read: DocumentsTable.document(from:)
        )
    }

    /// Keeps `bytes` (an empty file too) as a document of one of the owner's contacts. A missing contact or
    /// file is reported with the other problems; another account's contact is as absent as a missing one.
    func create(
        contactID: Int?, bytes: [UInt8]?, filename: String?, mimeType: String?, typeErrors: [FieldError] = [],
        uuid: UUID? = nil
    ) async throws -> Document {
        var problems = typeErrors
        if contactID == nil, !problems.contains(where: { $0.field == "contact_id" }) {
            problems.append(FieldError(field: "contact_id", message: "Choose the contact this document belongs to."))
        }
        if bytes == nil {
            problems.append(FieldError(field: "document", message: "Send the file as the form's `document`."))
        }
        guard let contactID, let bytes, problems.isEmpty else { throw ValidationFailure(problems) }
        try await database.requireNewRecord(uuid, in: DocumentsTable.self, ownedBy: ownerID)
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
        let now = dependencies.now()
        let uuid = uuid ?? dependencies.newUUID()
        let digest = Photo.digest(of: bytes)
        let id = try await database.write(ownedBy: ownerID, at: now) { [ownerID] transaction in
            let blobID = try await PhotoBlobs(database: transaction, ownerID: ownerID)
                .store(bytes, digest: digest, now: now)
            return try await TableWriter(DocumentsTable.self, on: transaction).insert([
                .uuid: uuid, .owner: ownerID, .contact: contactID, .blob: blobID,
                .originalFilename: Document.originalFilename(filename), .mimeType: Document.mimeType(mimeType),
                .byteCount: bytes.count, .digest: digest, .downloads: 0, .createdAt: now, .updatedAt: now,
            ])
        }
        return try await document(id)
    }

    /// The bytes of the documents `ids` by id, without counting a download (an account's export).
    func contents(_ ids: [Int]) async throws -> [Int: [UInt8]] {
        let documents = try await database.ownedRows(
            ids, ownedBy: ownerID, in: DocumentsTable.self, selecting: DocumentsTable.documentColumns,
            read: DocumentsTable.document(from:))
        let bytes = try await PhotoBlobs(database: database, ownerID: ownerID).bytes(
            digests: Array(Set(documents.map(\.digest))))
        return Dictionary(
            uniqueKeysWithValues: documents.compactMap { document in
                bytes[document.digest].map { (document.id, $0) }
            })
    }

    /// The document and its bytes, counted as one more download (Monica's `number_of_downloads`).
    func download(_ id: Int) async throws -> (Document, [UInt8]) {
        var document = try await document(id)
        guard
            let bytes = try await PhotoBlobs(database: database, ownerID: ownerID).bytes(digests: [document.digest])[
                document.digest]
        else { throw AppError.notFound }
        try await database.write(DocumentsTable.self, ownedBy: ownerID, at: dependencies.now()) {
            [ownerID] documents in
            try await documents.update(
                [:], computing: [.downloads: #""number_of_downloads" + 1"#],
                where: DocumentsTable.ownedRow(id, ownedBy: ownerID))
        }
        document.downloads += 1
        return (document, bytes)
    }

    /// Deletes the document, and its bytes unless a photo or another document shows them.
    func delete(_ id: Int) async throws {
        try await database.write(ownedBy: ownerID, at: dependencies.now()) { [ownerID] transaction in
            try await TableWriter(DocumentsTable.self, on: transaction).delete(id, ownedBy: ownerID)
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
    }
}
