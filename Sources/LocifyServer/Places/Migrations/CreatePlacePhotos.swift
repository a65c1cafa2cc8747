import Fluent

/// Places' pictures, each going with its place; their bytes are the photos' (`photo_blobs`).
struct CreatePlacePhotos: AsyncMigration {
    static let indexes: [(name: String, columns: [PlacePhotosTable.Column])] = [
        ("place_photos_by_place", [.place, .position, .id]),
        ("place_photos_list", [.owner, .id]),
        ("place_photos_by_blob", [.blob]),
        ("place_photos_revision", [.owner, .revision]),
    ]

    func prepare(on database: any Database) async throws {
        typealias Column = PlacePhotosTable.Column
        try await database.schema(PlacePhotosTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(Column.place, .int, .required, .references(PlacesTable.name, "id", onDelete: .cascade))
            .field(Column.blob, .int, .required, .references(PhotoBlobsTable.name, "id"))
            .field(Column.position, .int, .required)
            .field(Column.originalFilename, .string, .required)
            .field(Column.mimeType, .string, .required)
            .field(Column.byteCount, .int, .required)
            .field(Column.width, .int, .required)
            .field(Column.height, .int, .required)
            .field(Column.digest, .string, .required)
            .timestamps()
            .field(Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: PlacePhotosTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlacePhotosTable.name).delete()
    }
}
