import Fluent

/// Contacts' addresses. Deleting a contact (or its account) deletes its addresses in the database.
struct CreateAddresses: AsyncMigration {
    static let indexes: [(name: String, columns: [String])] = [
        // The API's lists, in their two sort orders, within one owner.
        ("addresses_list_by_created", ["user_id", "created_at", "id"]),
        ("addresses_list_by_updated", ["user_id", "updated_at", "id"]),
        // A contact's addresses, and the cascade when it is deleted.
        ("addresses_by_contact", ["contact_id", "id"]),
    ]

    func prepare(on database: any Database) async throws {
        try await database.schema(AddressModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("user_id", .int, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("contact_id", .int, .required, .references(ContactModel.schema, "id", onDelete: .cascade))
            .field("label", .string)
            .field("street", .string)
            .field("city", .string)
            .field("province", .string)
            .field("postal_code", .string)
            .field("country", .string)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("geocode_status", .string, .required)
            .field("geocode_precision", .string)
            .field("geocode_source", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .create()
        try await database.createIndexes(Self.indexes, on: AddressModel.schema)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AddressModel.schema).delete()
    }
}
