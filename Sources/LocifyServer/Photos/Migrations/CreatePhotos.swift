import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Contacts' photos (Monica's `photos`). Deleting a contact deletes its photos; their bytes go when no
/// photo shows them any more.
struct CreatePhotos: AsyncMigration {
    static let indexes: [(name: String, columns: [PhotosTable.Column])] = [
        ("photos_list_by_created", [.owner, .createdAt, .id]),
        ("photos_list_by_updated", [.owner, .updatedAt, .id]),
        ("photos_by_contact", [.contact, .id]),
        ("photos_by_blob", [.blob]),
    ]

    func prepare(on database: any Database) async throws {
        typealias Column = PhotosTable.Column
        try await database.schema(PhotosTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(Column.blob, .int, .required, .references(PhotoBlobsTable.name, "id"))
            .field(Column.originalFilename, .string, .required)
            .field(Column.mimeType, .string, .required)
            .field(Column.byteCount, .int, .required)
            .field(Column.width, .int, .required)
            .field(Column.height, .int, .required)
            .field(Column.digest, .string, .required)
            .timestamps()
            .unique(on: Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: PhotosTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PhotosTable.name).delete()
    }
}
