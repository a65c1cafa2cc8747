import Vapor

extension NavigationCounter {
    /// Reminders due today, beside Reminders.
    static let remindersDueToday = NavigationCounter(section: .reminders) { request in
        try await request.reminders().dueCount(on: request.today)
    }
}
