import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's activities.
    func activities() throws -> ActivityService {
        ActivityService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The signed-in user's activity types and categories.
    func activityTypes() throws -> ActivityTypeService {
        ActivityTypeService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    func activityResource(_ activity: Activity) async throws -> ActivityResource {
        try await activityResources([activity])[0]
    }

    /// Each activity with its type and who was there: the types, categories and contacts read once.
    func activityResources(_ activities: [Activity]) async throws -> [ActivityResource] {
        let base = baseURL
        let year = today.year
        let catalogue = try await activityTypes().catalogue()
        let typeResources = Self.activityTypeResources(catalogue.types, categories: catalogue.categories)
        let byID = Dictionary(uniqueKeysWithValues: typeResources.map { ($0.id, $0) })
        let contacts = try await self.contacts().contacts(activities.flatMap(\.fields.attendeeIDs))
        return activities.map { activity in
            ActivityResource(
                activity, url: base + ActivityPaths.apiActivity(activity.id).path,
                type: activity.fields.typeID.flatMap { byID[$0] },
                attendees: activity.fields.attendeeIDs.compactMap { contacts[$0] }.map {
                    contactShortResource($0, currentYear: year, baseURL: base)
                })
        }
    }

    /// Each type with its category.
    func activityTypeResources(_ types: [ActivityType]) async throws -> [ActivityTypeResource] {
        Self.activityTypeResources(types, categories: try await activityTypes().categories())
    }

    private static func activityTypeResources(_ types: [ActivityType], categories: [ActivityTypeCategory])
        -> [ActivityTypeResource]
    {
        let byID = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0) })
        return types.compactMap { type in byID[type.categoryID].map { ActivityTypeResource(type, category: $0) } }
    }
}
