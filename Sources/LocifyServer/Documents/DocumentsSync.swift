import LocifyAPI
import LocifyCore
import Vapor

extension SyncedType {
    /// Documents as `GET /api/documents/{id}` answers them (the file itself by its `link`).
    static let document = SyncedType(DocumentsTable.self, restore: .document) { request, ids in
        let documents = try await request.ownedRows(
            ids, in: DocumentsTable.self, selecting: DocumentsTable.documentColumns,
            read: DocumentsTable.document(from:))
        return byID(try await request.documentResources(documents), id: \.id, as: SyncRecord.document)
    }
}

/// The web app shows no documents yet: a change reaches no page.
extension OfflinePages {
    static let document = OfflinePages(type: SyncedType.document.name)
}

extension ArchiveRestore {
    /// A document's bytes travel in the archive's `extra` (`content`, in base64): its resource only links
    /// to them.
    static let document = ArchiveRestore(
        extras: { request, ids in
            try await request.documents().contents(ids).mapValues {
                ["content": .string(Data($0).base64EncodedString())]
            }
        },
        create: { request, record, uuid, ids in
            guard case .string(let content) = record.extra["content"] ?? .null, let bytes = Data(base64Encoded: content)
            else { throw ValidationFailure(field: "content", "The document's bytes are missing from the file.") }
            return try await request.documents().create(
                contactID: try ids.id(of: "contact", record.referencedID("contact")), bytes: Array(bytes),
                filename: record.text("original_filename"), mimeType: record.text("mime_type"), uuid: uuid
            ).id
        })
}
