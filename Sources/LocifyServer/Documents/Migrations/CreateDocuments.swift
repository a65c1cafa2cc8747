import Fluent

struct CreateDocuments: AsyncMigration {
    static let indexes: [(name: String, columns: [DocumentsTable.Column])] = [
        ("documents_list", [.owner, .id]),
        ("documents_by_contact", [.contact, .id]),
        ("documents_by_blob", [.blob]),
        ("documents_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(DocumentsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(DocumentsTable.Column.blob, .int, .required, .references(PhotoBlobsTable.name, "id"))
            .field(DocumentsTable.Column.originalFilename, .string, .required)
            .field(DocumentsTable.Column.mimeType, .string, .required)
            .field(DocumentsTable.Column.byteCount, .int, .required)
            .field(DocumentsTable.Column.digest, .string, .required)
            .field(DocumentsTable.Column.downloads, .int, .required)
            .timestamps()
            .field(DocumentsTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: DocumentsTable.Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: DocumentsTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DocumentsTable.name).delete()
    }
}
