import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's reminders.
    func reminders() throws -> ReminderService {
        ReminderService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a reminder input (see `jsonInput`).
    func reminderInput() throws -> ReminderInput {
        try jsonInput(ReminderInput.self, empty: ReminderInput(draft: ReminderDraft(), presentKeys: []))
    }

    func reminderResource(_ reminder: Reminder) async throws -> ReminderResource {
        try await reminderResources([reminder])[0]
    }

    /// Each reminder with its contact, the contacts read in one query.
    func reminderResources(_ reminders: [Reminder]) async throws -> [ReminderResource] {
        let today = self.today
        return try await resources(reminders, contactOf: \.contactID) {
            ReminderResource($0, contact: $1, today: today)
        }
    }
}
