extension PathParameter {
    static let notificationID = PathParameter("notificationID")
}

/// The Notifications page and its settings.
enum NotificationPaths {
    static let list = SitePaths.notifications
    static let latest = SitePaths.latestNotifications
    static let readAll = list.appending("read")
    static let read = list.appending(.notificationID).appending("read")
    static let settings = SitePaths.settingsNotifications
    static let settingsTest = settings.appending("test")
    static let settingsFeed = SitePaths.settings.appending("feed")
}
