import LocifyAPI
import Vapor

extension SyncedType {
    /// Documents as `GET /api/documents/{id}` answers them (the file itself by its `link`).
    static let document = SyncedType(DocumentsTable.self) { request, ids in
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
