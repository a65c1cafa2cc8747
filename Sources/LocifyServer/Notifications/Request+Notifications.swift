import Vapor

extension Request {
    func notificationInbox() throws -> NotificationInbox {
        NotificationInbox(database: db, ownerID: try requireUser().id, dependencies: dependencies)
    }

    func notificationSettings() throws -> NotificationSettingsService {
        NotificationSettingsService(database: db, ownerID: try requireUser().id, dependencies: dependencies)
    }
}

extension PeriodicTask {
    /// Plans the notifications that have come due and queues their delivery.
    static func planningNotifications(in application: Application) -> PeriodicTask {
        let planner = application.notificationPlanner
        return PeriodicTask(name: "planning notifications") { now in try await planner.plan(now: now) }
    }
}

extension NavigationCounter {
    /// Notifications not read yet, beside Notifications.
    static let unreadNotifications = NavigationCounter(section: .notifications) { request in
        try await request.notificationInbox().unreadCount()
    }
}
