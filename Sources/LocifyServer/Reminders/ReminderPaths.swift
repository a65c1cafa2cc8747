extension PathParameter {
    static let reminderID = PathParameter("reminderID")
    static let timelineGroup = PathParameter("group")
    static let monthOffset = PathParameter("month")
    static let feedSecret = PathParameter("secret")
}

/// Reminders: pages, the API and the calendar feed.
enum ReminderPaths {
    static let list = SitePaths.reminders
    static let new = list.appending("new")
    static let reminder = list.appending(.reminderID)
    static let edit = reminder.appending("edit")
    static let delete = reminder.appending("delete")
    static let done = reminder.appending("done")

    static let api = SitePaths.apiReminders
    static let apiReminder = api.appending(.reminderID)
    static let apiDone = apiReminder.appending("done")
    static let apiFeed = api.appending("feed")
    static let apiTimeline = api.appending("timeline")
    static let apiTimelineGroup = apiTimeline.appending(text: .timelineGroup)
    static let apiUpcoming = api.appending("upcoming").appending(text: .monthOffset)
    static let apiContactReminders = ContactPaths.apiContact.appending("reminders")

    /// The calendar feed, opened by calendar apps with the secret in the path.
    static let feed = SitePath("feeds").appending(text: .feedSecret).appending("reminders.ics")
}
