import Fluent

/// Contacts' phone numbers, e-mails and social accounts (Monica's contact fields), their kinds per
/// account and their labels.
struct CreateContactFields: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Kind = ContactFieldTypesTable.Column
        try await database.schema(ContactFieldTypesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(Kind.name, .string, .required)
            .field(Kind.icon, .string)
            .field(Kind.linkProtocol, .string)
            .field(Kind.isDelible, .bool, .required)
            .field(Kind.type, .string)
            .timestamps()
            .unique(on: Kind.uuid)
            .create()
        typealias Field = ContactFieldsTable.Column
        try await database.schema(ContactFieldsTable.name)
            .identifier()
            .uuid()
            .owner()
            .contact()
            .field(Field.type, .int, .required, .references(ContactFieldTypesTable.name, "id", onDelete: .cascade))
            .field(Field.data, .string, .required)
            .timestamps()
            .unique(on: Field.uuid)
            .create()
        typealias Label = ContactFieldLabelsTable.Column
        try await database.schema(ContactFieldLabelsTable.name)
            .identifier()
            .owner()
            .field(Label.field, .int, .required, .references(ContactFieldsTable.name, "id", onDelete: .cascade))
            .field(Label.type, .string, .required)
            .field(Label.label, .string, .required)
            .timestamps()
            .create()
        try await database.createIndexes(
            [("contact_fields_by_contact", [Field.contact, .id]), ("contact_fields_by_type", [Field.type])],
            on: ContactFieldsTable.self)
        try await database.createIndexes(
            [("contact_field_labels_by_field", [Label.field, .id])], on: ContactFieldLabelsTable.self)
        try await database.createIndexes(
            [("contact_field_types_by_owner", [Kind.owner, .id])], on: ContactFieldTypesTable.self)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ContactFieldLabelsTable.name).delete()
        try await database.schema(ContactFieldsTable.name).delete()
        try await database.schema(ContactFieldTypesTable.name).delete()
    }
}
