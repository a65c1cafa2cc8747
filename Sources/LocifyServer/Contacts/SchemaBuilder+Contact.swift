import FluentKit

extension SchemaBuilder {
    /// The contact the row belongs to. Without one (`required: false`) the row may stand alone, and
    /// `onDelete` says what a deleted contact does to it.
    func contact(required: Bool = true, onDelete: DatabaseSchema.ForeignKeyAction = .cascade) -> Self {
        let reference = DatabaseSchema.FieldConstraint.references(ContactsTable.name, "id", onDelete: onDelete)
        return required
            ? field(SharedColumn.contact, .int, .required, reference) : field(SharedColumn.contact, .int, reference)
    }
}
