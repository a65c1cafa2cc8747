import Fluent

struct CreateDAVTasks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        typealias Column = DAVTasksTable.Column
        try await database.schema(DAVTasksTable.name)
            .identifier()
            .owner()
            .field(Column.task, .int, .references(TasksTable.name, "id", onDelete: .setNull))
            .field(Column.taskUUID, .uuid, .required)
            .field(Column.fileName, .string, .required)
            .field(Column.object, .string, .required)
            .field(Column.uid, .string, .required)
            .field(Column.updatedAt, .datetime, .required)
            .unique(on: Column.task)
            .unique(on: Column.owner, .fileName)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DAVTasksTable.name).delete()
    }
}
