import Fluent

struct CreateActivities: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ActivityDefaultsTable.name)
            .identifier()
            .owner()
            .field(ActivityDefaultsTable.Column.createdAt, .datetime, .required)
            .unique(on: ActivityDefaultsTable.Column.owner)
            .create()
        try await database.schema(ActivityTypeCategoriesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(ActivityTypeCategoriesTable.Column.name, .string, .required)
            .timestamps()
            .field(ActivityTypeCategoriesTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: ActivityTypeCategoriesTable.Column.uuid)
            .create()
        try await database.createIndexes(
            [
                ("activity_type_categories_list", [.owner, .id]),
                ("activity_type_categories_revision", [.owner, .revision]),
            ],
            on: ActivityTypeCategoriesTable.self)
        try await database.schema(ActivityTypesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(
                ActivityTypesTable.Column.category, .int, .required,
                .references(ActivityTypeCategoriesTable.name, "id", onDelete: .cascade)
            )
            .field(ActivityTypesTable.Column.name, .string, .required)
            .field(ActivityTypesTable.Column.locationType, .string)
            .timestamps()
            .field(ActivityTypesTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: ActivityTypesTable.Column.uuid)
            .create()
        try await database.createIndexes(
            [
                ("activity_types_list", [.owner, .id]), ("activity_types_by_category", [.category]),
                ("activity_types_revision", [.owner, .revision]),
            ], on: ActivityTypesTable.self)
        try await database.schema(ActivitiesTable.name)
            .identifier()
            .uuid()
            .owner()
            .field(ActivitiesTable.Column.type, .int)
            .field(ActivitiesTable.Column.summary, .string, .required)
            .field(ActivitiesTable.Column.description, .string)
            .field(ActivitiesTable.Column.happenedOn, .string, .required)
            .field(ActivitiesTable.Column.emotions, .string, .required)
            .timestamps()
            .field(ActivitiesTable.Column.revision, .int64, .required, .sql(.default(0)))
            .unique(on: ActivitiesTable.Column.uuid)
            .create()
        try await database.createIndexes(
            [("activities_list", [.owner, .happenedOn, .id]), ("activities_revision", [.owner, .revision])],
            on: ActivitiesTable.self)
        try await database.schema(ActivityContactsTable.name)
            .identifier()
            .owner()
            .field(
                ActivityContactsTable.Column.activity, .int, .required,
                .references(ActivitiesTable.name, "id", onDelete: .cascade)
            )
            .contact()
            .unique(on: ActivityContactsTable.Column.activity, .contact)
            .create()
        try await database.createIndexes(
            [("activity_contacts_by_contact", [.contact, .activity])], on: ActivityContactsTable.self)
    }

    func revert(on database: any Database) async throws {
        for table in [
            ActivityContactsTable.name, ActivitiesTable.name, ActivityTypesTable.name, ActivityTypeCategoriesTable.name,
            ActivityDefaultsTable.name,
        ] {
            try await database.schema(table).delete()
        }
    }
}
