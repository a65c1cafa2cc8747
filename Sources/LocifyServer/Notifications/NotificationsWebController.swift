import LocifyCore
import Vapor

/// The Notifications page (in-app notices, read and unread) and Settings → Notifications (when, where,
/// the webhook's test, the calendar feed and the delivery log).
struct NotificationsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(NotificationPaths.list, use: index)
        routes.get(NotificationPaths.latest, use: latest)
        routes.post(NotificationPaths.readAll, use: markAllRead)
        routes.post(NotificationPaths.read, use: markRead)
        routes.get(NotificationPaths.settings, use: showSettings)
        routes.post(NotificationPaths.settings, use: saveSettings)
        routes.post(NotificationPaths.settingsTest, use: sendTest)
        routes.post(NotificationPaths.settingsFeed, use: regenerateFeed)
    }

    func index(request: Request) async throws -> View {
        let notifications = try await request.notificationInbox().recent()
        return try await request.view.render(
            "notifications/index", NotificationsPage.Context(notifications, request: request))
    }

    /// For the page's script: the newest notifications after `after`, to show as browser notifications.
    func latest(request: Request) async throws -> Response {
        let after = request.query[Int.self, at: "after"]
        let inbox = try request.notificationInbox()
        let items = try await inbox.recent(limit: 20, afterID: after)
        let unread = try await inbox.unreadCount()
        var object: [String: Any] = ["unread": unread]
        object["notifications"] = items.filter { $0.readAt == nil }.map { notification -> [String: Any] in
            [
                "id": notification.id, "title": notification.title, "body": notification.body,
                "url": notification.contactID.map { ContactPaths.contact($0).path } ?? SitePaths.notifications.path,
            ]
        }
        object["latest_id"] = items.first?.id ?? after ?? 0
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return Response(status: .ok, headers: headers, body: .init(data: body))
    }

    func markRead(request: Request) async throws -> Response {
        try await request.notificationInbox().markRead(try request.pathID(.notificationID))
        return request.redirect(to: SitePaths.notifications, flash: "Marked as read.")
    }

    func markAllRead(request: Request) async throws -> Response {
        try await request.notificationInbox().markRead(nil)
        return request.redirect(to: SitePaths.notifications, flash: "All notifications are marked as read.")
    }

    struct SettingsForm: Content {
        var timeOfDay: String?
        var advance1: String?
        var advance3: String?
        var advance7: String?
        var advance14: String?
        var advance30: String?
        var inApp: String?
        var email: String?
        var webhookURL: String?
        var webhookPreset: String?
        var weekStartsOn: String?

        enum CodingKeys: String, CodingKey {
            case timeOfDay = "time_of_day"
            case advance1 = "advance_1"
            case advance3 = "advance_3"
            case advance7 = "advance_7"
            case advance14 = "advance_14"
            case advance30 = "advance_30"
            case inApp = "in_app"
            case email
            case webhookURL = "webhook_url"
            case webhookPreset = "webhook_preset"
            case weekStartsOn = "week_starts_on"
        }

        var advanceDays: [String] {
            zip([advance1, advance3, advance7, advance14, advance30], NotificationPreferences.advanceChoices)
                .compactMap { box, days in box == nil ? nil : String(days) }
        }

        var draft: NotificationPreferencesDraft {
            NotificationPreferencesDraft(
                timeOfDay: timeOfDay, advanceDays: advanceDays, inApp: inApp != nil, email: email != nil,
                webhookURL: webhookURL, webhookPreset: webhookPreset, weekStartsOn: weekStartsOn)
        }

        init(_ preferences: NotificationPreferences) {
            timeOfDay = preferences.timeOfDay
            let chosen = Set(preferences.advanceDays)
            func box(_ days: Int) -> String? { chosen.contains(days) ? "on" : nil }
            advance1 = box(1)
            advance3 = box(3)
            advance7 = box(7)
            advance14 = box(14)
            advance30 = box(30)
            inApp = preferences.inApp ? "on" : nil
            email = preferences.email ? "on" : nil
            webhookURL = preferences.webhook?.url
            webhookPreset = preferences.webhook?.preset.rawValue
            weekStartsOn = String(preferences.weekStartsOn)
        }
    }

    func showSettings(request: Request) async throws -> View {
        try await renderSettings(request)
    }

    func saveSettings(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let form = try request.content.decode(SettingsForm.self)
        let mailAvailable = request.application.locifyConfig.outside.mailCommand != nil
        return try await request.handleForm {
            let preferences = try form.draft.validated(emailAvailable: mailAvailable)
            try await request.notificationSettings().save(preferences, timeZone: user.timeZone)
            return .redirect(to: SitePaths.settingsNotifications.path, flash: "Your notification settings were saved.")
        } redraw: { errors in
            try await renderSettings(request, form: form, errors: errors)
        }
    }

    /// Sends a test on every outside channel that is on, at once, and says how each went.
    func sendTest(request: Request) async throws -> Response {
        let user = try request.requireUser()
        let preferences = try await request.notificationSettings().preferences()
        let outbox = NotificationOutbox(database: request.db, userID: user.id, dependencies: request.dependencies)
        let today = request.today
        let notice = OutgoingNotice(
            text: NoticeText(
                reminderTitle: "This is a test from Locify", contactName: user.profile.name, occurrence: today,
                daysBefore: 0, timeZone: user.timeZone),
            reminderID: nil, contactID: nil, contactName: user.profile.name, occurrence: today, daysBefore: 0,
            isLate: false, link: request.absoluteURL(SitePaths.notifications), isTest: true)
        let recipient = NotificationOutbox.Recipient(
            user: user, preferences: preferences, mailFrom: request.application.locifyConfig.mailFrom)
        var results: [String] = []
        for channel in preferences.channels where channel != .inApp {
            let (sent, failed) =
                channel == .webhook
                ? ("The webhook accepted the test.", "The webhook test failed")
                : ("The test e-mail was handed to the mail command.", "The test e-mail failed")
            do {
                try await outbox.sendTest(notice, on: channel, to: recipient)
                results.append(sent)
            } catch {
                results.append("\(failed): \(error).")
            }
        }
        if results.isEmpty {
            results.append("Nothing to test: turn on a webhook or e-mail and save first.")
        }
        return request.redirect(to: SitePaths.settingsNotifications, flash: results.joined(separator: " "))
    }

    func regenerateFeed(request: Request) async throws -> Response {
        try await request.notificationSettings().regenerateFeedSecret()
        return request.redirect(
            to: SitePaths.settingsNotifications,
            flash: "The calendar feed has a new address; the old one no longer works. Subscribe again with the new one."
        )
    }

    private func renderSettings(_ request: Request, form: SettingsForm? = nil, errors: FieldMessages = [:])
        async throws -> View
    {
        let settings = try request.notificationSettings()
        let preferences = try await settings.preferences()
        let secret = try await settings.feedSecret()
        let deliveries = try await request.notificationInbox().deliveries()
        let context = NotificationSettingsPage.Context(
            form: form ?? SettingsForm(preferences), errors: errors, user: try request.requireUser(),
            mailAvailable: request.application.locifyConfig.outside.mailCommand != nil,
            feedURL: request.absoluteURL(ReminderPaths.feed(secret)), deliveries: deliveries,
            session: request.pageSession)
        return try await request.view.render("settings/notifications", context)
    }
}

enum NotificationsPage {
    struct Item: Encodable {
        let title: String
        let body: String
        let contactURL: String?
        let isUnread: Bool
        let isLate: Bool
        let received: String
        let readURL: String
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let items: [Item]
        let hasUnread: Bool
        let readAllURL: String
        let latestURL: String
        let settingsURL: String
        let remindersURL: String
        let latestID: Int

        init(_ notifications: [InAppNotification], request: Request) {
            layout = LayoutContext(request: request, title: "Notifications", section: .notifications)
            let timeZone = (try? request.requireUser().timeZone) ?? .gmt
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            items = notifications.map { notification in
                let day = CalendarDate(notification.createdAt, in: timeZone)
                let time = calendar.dateComponents([.hour, .minute], from: notification.createdAt)
                let minutes = (time.hour ?? 0) * 60 + (time.minute ?? 0)
                return Item(
                    title: notification.title, body: notification.body,
                    contactURL: notification.contactID.map { ContactPaths.contact($0).path },
                    isUnread: notification.readAt == nil, isLate: notification.isLate,
                    received: "\(day.dayMonthYear), \(NotificationPreferences.clockText(minutes))",
                    readURL: NotificationPaths.read(notification.id).path)
            }
            hasUnread = items.contains(where: \.isUnread)
            readAllURL = NotificationPaths.readAll.path
            latestURL = NotificationPaths.latest.path
            settingsURL = SitePaths.settingsNotifications.path
            remindersURL = SitePaths.reminders.path
            latestID = notifications.first?.id ?? 0
        }
    }
}

enum NotificationSettingsPage {
    struct Delivery: Encodable {
        let when: String
        let channel: String
        let title: String
        let status: String
        let detail: String?
        let isProblem: Bool
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let timeField: FormField
        let advanceGroup: FormGroup
        let channelFields: [FormField]
        let webhookFields: [FormField]
        let weekField: FormField
        let saveURL: String
        let testURL: String
        let feedField: FormField
        let regenerateURL: String
        let settingsURL: String
        let deliveries: [Delivery]

        init(
            form: NotificationsWebController.SettingsForm, errors: FieldMessages, user: AuthenticatedUser,
            mailAvailable: Bool, feedURL: String, deliveries: [NotificationDelivery], session: PageSession
        ) {
            layout = LayoutContext(title: "Notifications settings", section: .settings, session: session)
            timeField = FormField(
                "time_of_day", label: "Time of day", control: .time, value: form.timeOfDay, errors: errors,
                hint: "A day's notifications go out at this time, in your timezone (\(user.profile.timezone)).")
            let chosen = Set(form.advanceDays)
            advanceGroup = FormGroup(
                "advance_days", legend: "Also tell me ahead",
                fields: NotificationPreferences.advanceChoices.map { days in
                    FormField(
                        "advance_\(days)", label: days == 1 ? "1 day before" : "\(days) days before",
                        control: .checkbox, isChecked: chosen.contains(String(days)))
                }, errors: errors)
            channelFields = [
                FormField(
                    "in_app", label: "In Locify: the Notifications page, and your browser once you enable it there",
                    control: .checkbox, isChecked: form.inApp != nil),
                FormField(
                    "email", label: "By e-mail to \(user.profile.email)", control: .checkbox, errors: errors,
                    hint: mailAvailable
                        ? nil : "This server cannot send e-mail until its administrator sets LOCIFY_SENDMAIL.",
                    isChecked: form.email != nil),
            ]
            let preset = form.webhookPreset ?? WebhookTarget.Preset.json.rawValue
            webhookFields = [
                FormField(
                    "webhook_url", label: "Webhook address", control: .url, value: form.webhookURL, errors: errors,
                    hint:
                        "Leave empty for no webhook. ntfy: https://ntfy.sh/your-topic. Gotify: https://gotify.example/message?token=…",
                    inputMode: "url", maxLength: NotificationPreferencesDraft.maximumURLLength),
                FormField(
                    "webhook_preset", label: "Webhook format", control: .select, errors: errors,
                    options: WebhookTarget.Preset.allCases.map {
                        SelectOption(value: $0.rawValue, label: $0.label, isSelected: $0.rawValue == preset)
                    }),
            ]
            let weekStart = form.weekStartsOn ?? String(NotificationPreferences.defaultWeekStart)
            weekField = FormField(
                "week_starts_on", label: "Weeks start on", control: .select, errors: errors,
                hint: "For the Reminders page's “this week”.",
                options: (1...7).map {
                    SelectOption(
                        value: String($0), label: CalendarDate.weekdayNames[$0 - 1], isSelected: String($0) == weekStart
                    )
                })
            saveURL = SitePaths.settingsNotifications.path
            testURL = NotificationPaths.settingsTest.path
            feedField = FormField(
                "", label: "Feed address (keep it private: anyone with it can read your reminders)", value: feedURL,
                isReadOnly: true, styleClass: "token-value"
            ).identified(as: "feed-url")
            regenerateURL = NotificationPaths.settingsFeed.path
            settingsURL = SitePaths.settings.path
            self.deliveries = deliveries.map { delivery in
                Delivery(
                    when: Timestamp.string(delivery.updatedAt).prefix(16).replacingOccurrences(of: "T", with: " ")
                        + " UTC",
                    channel: delivery.channel == .email ? "E-mail" : "Webhook", title: delivery.title,
                    status: delivery.status, detail: delivery.detail,
                    isProblem: ["failed", "retrying", "interrupted"].contains(delivery.status))
            }
        }
    }
}
