import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's reminders.
    func reminders() throws -> ReminderService {
        ReminderService(database: db, ownerID: try requireUser().id, dependencies: dependencies)
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
        let contacts = try await self.contacts().contacts(reminders.map(\.contactID))
        let today = self.today
        return try reminders.map { reminder in
            guard let contact = contacts[reminder.contactID] else { throw AppError.notFound }
            return ReminderResource(
                reminder, contact: contactShortResource(contact, currentYear: today.year), today: today)
        }
    }
}
