import LocifyAPI
import LocifyCore
import Vapor

/// `/api/activities` and `/api/contacts/{id}/activities`.
struct ActivitiesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ActivityPaths.api, use: index)
        routes.on(.POST, ActivityPaths.api, limit: .longText, use: create)
        routes.get(ActivityPaths.apiActivity, use: show)
        routes.on(.PUT, ActivityPaths.apiActivity, limit: .longText, use: update)
        routes.delete(ActivityPaths.apiActivity, use: delete)
        routes.get(ActivityPaths.apiContactActivities, use: indexOfContact)
    }

    func index(request: Request) async throws -> PageResource<ActivityResource> {
        try await page(request, contactID: try request.contactFilter(), path: ActivityPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<ActivityResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: ActivityPaths.apiContactActivities(contactID))
    }

    /// Newest day first; `meta.statistics` counts the whole account's activities by year, as Monica does.
    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        ActivityResource
    > {
        let query = try ListQuery(from: request, defaultSort: ActivityService.defaultSort)
        let activities = try request.activities()
        let (found, window) = try await activities.page(contactID: contactID, sort: query.sort, page: query.page)
        var page = PageResource(
            items: try await request.activityResources(found), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request, keeping: ["contact_id"]))
        page.meta.statistics = YearlyCounts(try await activities.yearlyCounts())
        return page
    }

    func show(request: Request) async throws -> DataEnvelope<ActivityResource> {
        let activity = try await request.activities().activity(try request.pathID(.activityID))
        return DataEnvelope(data: try await request.activityResource(activity))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.jsonInput(ActivityInput.self, empty: ActivityInput())
        let activities = try request.activities()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: ActivitiesTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.activityResource(try await activities.activity($0)))
        } create: {
            let activity = try await activities.create(input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.activityResource(activity))
        }
    }

    /// What is left out is kept (Monica requires every key again); `contacts` replaces who was there.
    func update(request: Request) async throws -> DataEnvelope<ActivityResource> {
        let input = try request.jsonInput(ActivityInput.self, empty: ActivityInput())
        let activity = try await request.activities().update(
            try request.pathID(.activityID), typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.activityResource(activity))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.activityID)
        try await request.activities().delete(id)
        return DeletedResource(id: id)
    }
}

/// `/api/activitytypes` and `/api/activitytypecategories`: each account's, starting from Monica's
/// defaults. A create answers 200, as Monica's does.
struct ActivityTypesAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ActivityPaths.apiTypes, use: types)
        routes.post(ActivityPaths.apiTypes, use: createType)
        routes.get(ActivityPaths.apiType, use: type)
        routes.put(ActivityPaths.apiType, use: updateType)
        routes.delete(ActivityPaths.apiType, use: deleteType)
        routes.get(ActivityPaths.apiCategories, use: categories)
        routes.post(ActivityPaths.apiCategories, use: createCategory)
        routes.get(ActivityPaths.apiCategory, use: category)
        routes.put(ActivityPaths.apiCategory, use: updateCategory)
        routes.delete(ActivityPaths.apiCategory, use: deleteCategory)
    }

    func types(request: Request) async throws -> PageResource<ActivityTypeResource> {
        let query = try ListQuery(from: request, defaultSort: ActivityTypeService.defaultSort)
        let (shown, window) = query.page.slice(
            query.sort.sorted(
                try await request.activityTypes().types(), created: \.createdAt, updated: \.updatedAt, id: \.id))
        return PageResource(
            items: try await request.activityTypeResources(shown), window: window,
            path: request.absoluteURL(ActivityPaths.apiTypes),
            pageURL: query.pageURLs(of: ActivityPaths.apiTypes, on: request))
    }

    func type(request: Request) async throws -> DataEnvelope<ActivityTypeResource> {
        let found = try await request.activityTypes().type(try request.pathID(.activityTypeID))
        return DataEnvelope(data: try await request.activityTypeResources([found])[0])
    }

    func createType(request: Request) async throws -> Response {
        let input = try request.jsonInput(ActivityTypeInput.self, empty: ActivityTypeInput())
        let types = try request.activityTypes()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: ActivityTypesTable.self, uuid: uuid, createdStatus: .ok) {
            DataEnvelope(data: try await request.activityTypeResources([try await types.type($0)])[0])
        } create: {
            let made = try await types.createType(
                name: input.name ?? nil, categoryID: input.categoryID ?? nil, locationType: input.locationType ?? nil,
                typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.activityTypeResources([made])[0])
        }
    }

    func updateType(request: Request) async throws -> DataEnvelope<ActivityTypeResource> {
        let input = try request.jsonInput(ActivityTypeInput.self, empty: ActivityTypeInput())
        let updated = try await request.activityTypes().updateType(
            try request.pathID(.activityTypeID), name: input.name, categoryID: input.categoryID,
            locationType: input.locationType, typeErrors: input.typeErrors)
        return DataEnvelope(data: try await request.activityTypeResources([updated])[0])
    }

    func deleteType(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.activityTypeID)
        try await request.activityTypes().deleteType(id)
        return DeletedResource(id: id)
    }

    func categories(request: Request) async throws -> PageResource<ActivityTypeCategoryResource> {
        let query = try ListQuery(from: request, defaultSort: ActivityTypeService.defaultSort)
        let (shown, window) = query.page.slice(
            query.sort.sorted(
                try await request.activityTypes().categories(), created: \.createdAt, updated: \.updatedAt, id: \.id))
        return PageResource(
            items: shown.map(ActivityTypeCategoryResource.init), window: window,
            path: request.absoluteURL(ActivityPaths.apiCategories),
            pageURL: query.pageURLs(of: ActivityPaths.apiCategories, on: request))
    }

    func category(request: Request) async throws -> DataEnvelope<ActivityTypeCategoryResource> {
        let found = try await request.activityTypes().category(try request.pathID(.activityTypeCategoryID))
        return DataEnvelope(data: ActivityTypeCategoryResource(found))
    }

    func createCategory(request: Request) async throws -> Response {
        let input = try request.jsonInput(ActivityTypeInput.self, empty: ActivityTypeInput())
        let types = try request.activityTypes()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: ActivityTypeCategoriesTable.self, uuid: uuid, createdStatus: .ok) {
            DataEnvelope(data: ActivityTypeCategoryResource(try await types.category($0)))
        } create: {
            let made = try await types.createCategory(
                name: input.name ?? nil, typeErrors: input.typeErrors.filter { $0.field == "name" }, uuid: uuid)
            return DataEnvelope(data: ActivityTypeCategoryResource(made))
        }
    }

    func updateCategory(request: Request) async throws -> DataEnvelope<ActivityTypeCategoryResource> {
        let input = try request.jsonInput(ActivityTypeInput.self, empty: ActivityTypeInput())
        let updated = try await request.activityTypes().renameCategory(
            try request.pathID(.activityTypeCategoryID), name: input.name ?? nil,
            typeErrors: input.typeErrors.filter { $0.field == "name" })
        return DataEnvelope(data: ActivityTypeCategoryResource(updated))
    }

    func deleteCategory(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.activityTypeCategoryID)
        try await request.activityTypes().deleteCategory(id)
        return DeletedResource(id: id)
    }
}
