import LocifyAPI
import Vapor

extension SyncedType {
    /// An activity travels with who was there; a change of who was there is a change of the activity.
    static let activity = SyncedType(ActivitiesTable.self, writes: .activity) { request, ids in
        let activities = try await request.activities().activities(ids)
        return byID(try await request.activityResources(activities), id: \.id, as: SyncRecord.activity)
    }

    static let activityType = SyncedType(ActivityTypesTable.self) { request, ids in
        let types = try await request.activityTypes().types().filter { ids.contains($0.id) }
        return byID(try await request.activityTypeResources(types), id: \.id, as: SyncRecord.activityType)
    }

    static let activityTypeCategory = SyncedType(ActivityTypeCategoriesTable.self) { request, ids in
        let categories = try await request.activityTypes().categories().filter { ids.contains($0.id) }
        return byID(
            categories.map(ActivityTypeCategoryResource.init), id: \.id, as: SyncRecord.activityTypeCategory)
    }
}

extension SyncWrites {
    static let activity = SyncWrites(
        reading: ActivityInput.self,
        fields: ["summary", "description", "happened_at", "activity_type_id", "emotions", "contacts"],
        create: { request, input, uuid in
            try await request.activities().create(input.draft, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.activities().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.activities().delete(id) })
}

extension OfflinePages {
    /// An activity shows on the journal page, and so do the names of its type and category.
    static let activity = OfflinePages(type: SyncedType.activity.name) { _ in [SitePaths.journal.path] }
    static let activityType = OfflinePages(type: SyncedType.activityType.name) { _ in [SitePaths.journal.path] }
    static let activityTypeCategory = OfflinePages(type: SyncedType.activityTypeCategory.name) { _ in
        [SitePaths.journal.path]
    }
}
