import Foundation

/// One notification as it leaves the server: its words, what it is about and where to look.
public struct OutgoingNotice: Equatable, Sendable {
    public var text: NoticeText
    public var reminderID: Int?
    public var contactID: Int?
    public var contactName: String
    public var occurrence: CalendarDate
    public var daysBefore: Int
    public var isLate: Bool
    /// The contact's page, absolute.
    public var link: String
    /// A "Send test" from Settings, not a real reminder.
    public var isTest: Bool

    public init(
        text: NoticeText, reminderID: Int?, contactID: Int?, contactName: String, occurrence: CalendarDate,
        daysBefore: Int, isLate: Bool, link: String, isTest: Bool = false
    ) {
        self.text = text
        self.reminderID = reminderID
        self.contactID = contactID
        self.contactName = contactName
        self.occurrence = occurrence
        self.daysBefore = daysBefore
        self.isLate = isLate
        self.link = link
        self.isTest = isTest
    }
}

/// What is posted to a webhook, in the shape its preset's server reads.
public enum WebhookPayload {
    /// The URL to post to and the JSON body. ntfy reads JSON at its root with the topic inside; Gotify
    /// reads it at the URL given (which carries the token); Locify's own shape goes to the URL as is.
    public static func request(for target: WebhookTarget, notice: OutgoingNotice) -> (url: String, body: Data) {
        switch target.preset {
        case .json:
            var contact: [String: Any] = ["name": notice.contactName, "url": notice.link]
            if let id = notice.contactID { contact["id"] = id }
            var object: [String: Any] = [
                "title": notice.text.title, "message": notice.text.body, "date": notice.occurrence.description,
                "days_before": notice.daysBefore, "late": notice.isLate, "test": notice.isTest, "link": notice.link,
                "contact": contact,
            ]
            if let id = notice.reminderID { object["reminder_id"] = id }
            return (target.url, encode(object))
        case .ntfy:
            // ntfy takes JSON at its root, the topic inside: the root is the path without the topic.
            var components = URLComponents(string: target.url)
            let segments = components?.path.split(separator: "/").map(String.init) ?? []
            let topic = segments.last ?? ""
            let base = segments.dropLast()
            components?.path = "/" + base.map { $0 + "/" }.joined()
            components?.query = nil
            let object: [String: Any] = [
                "topic": topic, "title": notice.text.title, "message": notice.text.body, "click": notice.link,
                "tags": ["bell"],
            ]
            return (components?.string ?? target.url, encode(object))
        case .gotify:
            let object: [String: Any] = [
                "title": notice.text.title, "message": notice.text.body, "priority": 5,
                "extras": ["client::notification": ["click": ["url": notice.link]]],
            ]
            return (target.url, encode(object))
        }
    }

    private static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
