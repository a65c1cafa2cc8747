import Fluent

/// Contacts' addresses. Deleting a contact (or its account) deletes its addresses in the database.
struct CreateAddresses: AsyncMigration {
    static let indexes: [(name: String, columns: [AddressesTable.Column])] = [
        // The API's lists, in their two sort orders, within one owner.
        ("addresses_list_by_created", [.owner, .createdAt, .id]),
        ("addresses_list_by_updated", [.owner, .updatedAt, .id]),
        // A contact's addresses, and the cascade when it is deleted.
        ("addresses_by_contact", [.contact, .id]),
    ]

    func prepare(on database: any Database) async throws {
        typealias Column = AddressesTable.Column
        var schema = database.schema(AddressesTable.name).identifier().uuid().owner().contact()
        for column in [Column.label, .street, .city, .province, .postalCode, .country] {
            schema = schema.field(column, .string)
        }
        try await schema
            .field(Column.latitude, .double)
            .field(Column.longitude, .double)
            .field(Column.geocodeStatus, .string, .required)
            .field(Column.geocodePrecision, .string)
            .field(Column.geocodeSource, .string)
            .timestamps()
            .unique(on: Column.uuid)
            .create()
        try await database.createIndexes(Self.indexes, on: AddressesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AddressesTable.name).delete()
    }
}
