import LocifyAPI
import LocifyCore
import Vapor

/// `/api/tasks` and `/api/contacts/{id}/tasks`.
struct TasksAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(TaskPaths.api, use: index)
        routes.post(TaskPaths.api, use: create)
        routes.get(TaskPaths.apiTask, use: show)
        routes.put(TaskPaths.apiTask, use: update)
        routes.delete(TaskPaths.apiTask, use: delete)
        routes.get(TaskPaths.apiContactTasks, use: indexOfContact)
        routes.post(TaskPaths.apiContactTasks, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<TaskResource> {
        try await page(request, contactID: try request.contactFilter(), path: TaskPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<TaskResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: TaskPaths.apiContactTasks(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        TaskResource
    > {
        let query = try ListQuery(from: request, defaultSort: TaskService.defaultSort)
        let (tasks, window) = try await request.tasks().page(contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.taskResources(tasks), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
    }

    func show(request: Request) async throws -> DataEnvelope<TaskResource> {
        let task = try await request.tasks().task(try request.pathID(.taskID))
        return DataEnvelope(data: try await request.taskResource(task))
    }

    /// Monica answers a new task with 200, not 201; so does Locify, for the clients that check.
    func create(request: Request) async throws -> Response {
        let input = try request.taskInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/tasks` (Monica answers 405; clients call it): the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.taskInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: TaskInput, contactID: Int?) async throws -> Response {
        let tasks = try request.tasks()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: TasksTable.self, uuid: uuid, createdStatus: .ok) {
            DataEnvelope(data: try await request.taskResource(try await tasks.task($0)))
        } create: {
            let task = try await tasks.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.taskResource(task))
        }
    }

    /// Keys left out keep their value (a tick sends only `completed`); a `contact_id` other than the
    /// task's own is not found, as tasks never move.
    func update(request: Request) async throws -> DataEnvelope<TaskResource> {
        let input = try request.taskInput()
        let task = try await request.tasks().update(
            try request.pathID(.taskID), contactID: input.contactID, typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.taskResource(task))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.taskID)
        try await request.tasks().delete(id)
        return DeletedResource(id: id)
    }
}
