import Foundation

/// Where a notification goes.
public enum NotificationChannel: String, CaseIterable, Sendable, Codable {
    case inApp = "in_app"
    case email
    case webhook
}

/// A user's webhook: a URL and the shape of what is posted to it.
public struct WebhookTarget: Equatable, Sendable {
    /// `json` is Locify's own payload; `ntfy` and `gotify` are what those servers read, so a phone app of
    /// theirs shows the notification without anything in between.
    public enum Preset: String, CaseIterable, Sendable {
        case json, ntfy, gotify

        public var label: String {
            switch self {
            case .json: "JSON (any service)"
            case .ntfy: "ntfy"
            case .gotify: "Gotify"
            }
        }
    }

    public var url: String
    public var preset: Preset

    public init(url: String, preset: Preset) {
        self.url = url
        self.preset = preset
    }
}

/// How and when a person is told about their reminders, and how their week is laid out.
public struct NotificationPreferences: Equatable, Sendable {
    public static let advanceChoices = [1, 3, 7, 14, 30]
    /// 09:00.
    public static let defaultMinutes = 540
    /// Monday, in `CalendarDate.weekday`'s numbering (1 = Sunday).
    public static let defaultWeekStart = 2

    /// Minutes after local midnight at which the day's notifications go out.
    public var minutesAfterMidnight: Int
    /// Days before an occurrence on which a notice is also sent, ascending.
    public var advanceDays: [Int]
    public var inApp: Bool
    public var email: Bool
    public var webhook: WebhookTarget?
    /// The first day of the timeline's "this week", 1 = Sunday … 7 = Saturday.
    public var weekStartsOn: Int

    public init(
        minutesAfterMidnight: Int = defaultMinutes, advanceDays: [Int] = [], inApp: Bool = true, email: Bool = false,
        webhook: WebhookTarget? = nil, weekStartsOn: Int = defaultWeekStart
    ) {
        self.minutesAfterMidnight = minutesAfterMidnight
        self.advanceDays = advanceDays
        self.inApp = inApp
        self.email = email
        self.webhook = webhook
        self.weekStartsOn = weekStartsOn
    }

    public static let standard = NotificationPreferences()

    /// The channels a notice is sent on.
    public var channels: [NotificationChannel] {
        var channels: [NotificationChannel] = []
        if inApp { channels.append(.inApp) }
        if email { channels.append(.email) }
        if webhook != nil { channels.append(.webhook) }
        return channels
    }

    /// "09:00".
    public var timeOfDay: String { Self.clockText(minutesAfterMidnight) }

    public static func clockText(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// Minutes after midnight from "HH:MM" (a browser's time field may add ":SS", which is dropped).
    public static func minutes(fromClock text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 2, parts[1].count == 2,
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    /// The stored form of `advanceDays`: "1,7".
    public var advanceDaysText: String { advanceDays.map(String.init).joined(separator: ",") }

    /// Reads the stored form back, keeping only the offered choices.
    public static func advanceDays(fromText text: String) -> [Int] {
        Set(text.split(separator: ",").compactMap { Int($0) }).filter { advanceChoices.contains($0) }.sorted()
    }
}

/// Notification preferences as a form sends them, checked all at once.
public struct NotificationPreferencesDraft: Sendable {
    public var timeOfDay: String?
    public var advanceDays: [String]
    public var inApp: Bool
    public var email: Bool
    public var webhookURL: String?
    public var webhookPreset: String?
    public var weekStartsOn: String?

    public init(
        timeOfDay: String? = nil, advanceDays: [String] = [], inApp: Bool = false, email: Bool = false,
        webhookURL: String? = nil, webhookPreset: String? = nil, weekStartsOn: String? = nil
    ) {
        self.timeOfDay = timeOfDay
        self.advanceDays = advanceDays
        self.inApp = inApp
        self.email = email
        self.webhookURL = webhookURL
        self.webhookPreset = webhookPreset
        self.weekStartsOn = weekStartsOn
    }

    public static let maximumURLLength = 2_000

    /// `emailAvailable` is whether the server can send mail at all: asking for e-mail without it is an
    /// error rather than a silent nothing.
    public func validated(emailAvailable: Bool) throws(ValidationFailure) -> NotificationPreferences {
        var check = FieldChecker()
        let clock = timeOfDay?.trimmingCharacters(in: .whitespaces) ?? ""
        let minutes =
            clock.isEmpty ? NotificationPreferences.defaultMinutes : NotificationPreferences.minutes(fromClock: clock)
        if minutes == nil { check.fail("time_of_day", "Time of day must be a time such as 09:00.") }
        var days: [Int] = []
        for text in advanceDays {
            guard let day = Int(text.trimmingCharacters(in: .whitespaces)),
                NotificationPreferences.advanceChoices.contains(day)
            else {
                check.fail("advance_days", "Advance notices can be 1, 3, 7, 14 or 30 days before.")
                break
            }
            days.append(day)
        }
        if email, !emailAvailable {
            check.fail("email", "This server cannot send e-mail: its administrator has not set LOCIFY_SENDMAIL.")
        }
        let webhook = Self.webhook(url: webhookURL, preset: webhookPreset, check: &check)
        let weekText = weekStartsOn?.trimmingCharacters(in: .whitespaces) ?? ""
        let weekStart = weekText.isEmpty ? NotificationPreferences.defaultWeekStart : Int(weekText)
        if weekStart.map({ !(1...7).contains($0) }) ?? true {
            check.fail("week_starts_on", "The week can start on any day from Sunday (1) to Saturday (7).")
        }
        guard let minutes, let weekStart else { throw ValidationFailure(check.errors) }
        return try check.finish(
            NotificationPreferences(
                minutesAfterMidnight: minutes, advanceDays: Array(Set(days)).sorted(), inApp: inApp, email: email,
                webhook: webhook, weekStartsOn: weekStart))
    }

    private static func webhook(url: String?, preset: String?, check: inout FieldChecker) -> WebhookTarget? {
        let text = url?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !text.isEmpty else { return nil }
        let presetText = preset?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard let preset = presetText.isEmpty ? .json : WebhookTarget.Preset(rawValue: presetText) else {
            check.fail("webhook_preset", "The webhook's format must be json, ntfy or gotify.")
            return nil
        }
        guard text.count <= maximumURLLength, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            check.fail("webhook_url", "The webhook must be a web address starting with https:// or http://.")
            return nil
        }
        switch preset {
        case .json:
            break
        case .ntfy:
            // The topic is the last part of the path; what comes before it is where the server is
            // served from (`https://example.org/ntfy/your-topic` behind a proxy).
            if components.path.split(separator: "/").last?.isEmpty ?? true {
                check.fail("webhook_url", "An ntfy address names its topic: https://ntfy.sh/your-topic.")
                return nil
            }

        case .gotify:
            if !(components.queryItems ?? []).contains(where: { $0.name == "token" && !($0.value ?? "").isEmpty }) {
                check.fail(
                    "webhook_url",
                    "A Gotify address carries the application's token: https://gotify.example/message?token=…")
                return nil
            }
        }
        return WebhookTarget(url: text, preset: preset)
    }
}
