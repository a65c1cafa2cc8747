import LocifyCore
import Vapor

/// The numbers beside the navigation's Reminders and Notifications: what is due today and what is
/// unread. Read once per signed-in page, before the page is drawn.
struct NavigationCounts: Sendable, Equatable {
    var remindersToday = 0
    var unreadNotifications = 0
}

struct NavigationCountsKey: StorageKey {
    typealias Value = NavigationCounts
}

struct NavigationCountsMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.auth.has(AuthenticatedUser.self), !request.url.path.hasSuffix(".json") {
            request.storage[NavigationCountsKey.self] = NavigationCounts(
                remindersToday: try await request.reminders().dueCount(on: request.today),
                unreadNotifications: try await request.notificationInbox().unreadCount())
        }
        return try await next.respond(to: request)
    }
}

extension Request {
    func notificationInbox() throws -> NotificationInbox {
        NotificationInbox(database: db, ownerID: try requireUser().id, dependencies: dependencies)
    }

    func notificationSettings() throws -> NotificationSettingsService {
        NotificationSettingsService(database: db, ownerID: try requireUser().id, dependencies: dependencies)
    }
}
