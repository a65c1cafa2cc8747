import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's lifeEvents.
    func lifeEvents() throws -> LifeEventService {
        LifeEventService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a lifeEvent input (see `jsonInput`).
    func lifeEventInput() throws -> LifeEventInput {
        try jsonInput(LifeEventInput.self, empty: LifeEventInput(draft: LifeEventDraft(), presentKeys: []))
    }

    func lifeEventResource(_ lifeEvent: LifeEvent) async throws -> LifeEventResource {
        try await lifeEventResources([lifeEvent])[0]
    }

    /// Each lifeEvent with its contact, the contacts read in one query.
    func lifeEventResources(_ lifeEvents: [LifeEvent]) async throws -> [LifeEventResource] {
        let since = try requireUser().createdAt
        return try await resources(lifeEvents, contactOf: \.contactID) { lifeEvent, contact in
            LifeEventResource(lifeEvent, contact: contact, typesSince: since)
        }
    }
}
