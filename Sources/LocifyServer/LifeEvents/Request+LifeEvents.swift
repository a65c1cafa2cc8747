import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's life events.
    func lifeEvents() throws -> LifeEventService {
        LifeEventService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each life event with its contact, the contacts read in one query.
    func lifeEventResources(_ lifeEvents: [LifeEvent]) async throws -> [LifeEventResource] {
        let since = try requireUser().createdAt
        return try await resources(lifeEvents, contactOf: \.contactID) { lifeEvent, contact in
            LifeEventResource(lifeEvent, contact: contact, typesSince: since)
        }
    }
}
