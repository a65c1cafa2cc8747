import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Delivers one notice on one channel. Everything is read again when it runs, so a reminder edited or
/// deleted since it was queued, or a channel turned off, sends nothing stale. In-app notices are stored
/// under their key; webhook and e-mail deliveries are logged before they are attempted. A webhook
/// delivery interrupted half-way is sent again with the same `Idempotency-Key`, so the receiver can drop
/// the second copy; an e-mail has no such key, so an interrupted one is not sent again (at most once).
/// One that certainly failed is retried with back-off.
struct DeliverNotificationJob: JobHandler {
    struct Payload: Codable, Sendable {
        let userID: Int
        let reminderID: Int
        /// `YYYY-MM-DD`.
        let occurrence: String
        let daysBefore: Int
        let dueAt: Date
        let channel: NotificationChannel
    }

    static let kind = "notifications.deliver"
    static let maximumAttempts = 8
    /// Past this, a notice says it is late.
    static let lateAfter: TimeInterval = 24 * 3600

    func run(_ payload: Payload, context: JobContext) async throws {
        let database = context.database
        guard let occurrence = CalendarDate(iso8601: payload.occurrence),
            let user = try await database.user(payload.userID)
        else { return }
        let dependencies = context.dependencies
        let preferences = try await NotificationSettingsService(
            database: database, ownerID: user.id, dependencies: dependencies
        ).preferences()
        guard preferences.channels.contains(payload.channel),
            let reminder = try await ReminderService(database: database, ownerID: user.id, dependencies: dependencies)
                .reminderIfPresent(payload.reminderID),
            NotificationSchedule.isCurrent(occurrence, of: reminder),
            let contact = try await ContactService(database: database, owner: user, dependencies: dependencies)
                .contacts([reminder.contactID])[reminder.contactID]
        else { return }
        let now = dependencies.now()
        let isLate = now.timeIntervalSince(payload.dueAt) > Self.lateAfter
        let notice = OutgoingNotice(
            text: NoticeText(
                reminderTitle: reminder.fields.title, contactName: contact.completeName, occurrence: occurrence,
                daysBefore: payload.daysBefore, lateSince: isLate ? payload.dueAt : nil, timeZone: user.timeZone),
            reminderID: reminder.id, contactID: contact.id, contactName: contact.completeName, occurrence: occurrence,
            daysBefore: payload.daysBefore, isLate: isLate,
            link: context.config.baseURLForLinks + ContactPaths.contact(contact.id).path)
        let key = DueNotice(
            reminderID: reminder.id, occurrence: occurrence, daysBefore: payload.daysBefore, dueAt: payload.dueAt
        ).dedupeKey(on: payload.channel)
        let outbox = NotificationOutbox(database: database, userID: user.id, dependencies: dependencies)
        try await outbox.deliver(
            notice, key: key, on: payload.channel,
            to: .init(user: user, preferences: preferences, mailFrom: context.config.mailFrom),
            attempt: context.attempt)
    }
}

/// Where notices go: the in-app list, or the webhook or e-mail with the delivery log.
struct NotificationOutbox {
    let database: any Database
    let userID: Int
    let dependencies: LocifyDependencies

    enum Status: String {
        case sending, sent, retrying, failed, interrupted
    }

    /// The log's word for a webhook sent again after an interruption; `Status.sent` follows once it is.
    static let resentAfterInterruption = "Sent again after an interruption, with the same Idempotency-Key."

    /// Where the outside channels reach the user.
    struct Recipient {
        let email: String
        let webhook: WebhookTarget?
        let mailFrom: String

        init(user: AuthenticatedUser, preferences: NotificationPreferences, mailFrom: String) {
            email = user.profile.email
            webhook = preferences.webhook
            self.mailFrom = mailFrom
        }
    }

    /// Delivers `notice` on `channel` once per `key`. In-app notices are stored under the key. For the
    /// outside channels the log row is claimed first; a row left "sending" by a delivery that never
    /// finished is sent again under the same key on a webhook, and marked interrupted instead on e-mail.
    /// A failure is logged as retrying (the job runs again) or, from `DeliverNotificationJob.maximumAttempts`
    /// on, failed, and rethrown.
    func deliver(
        _ notice: OutgoingNotice, key: String, on channel: NotificationChannel, to recipient: Recipient, attempt: Int,
        sentDetail: String? = nil
    ) async throws {
        if channel == .inApp {
            try await storeInApp(notice, key: key)
            return ServerMetrics.countDelivery(on: channel.rawValue, succeeded: true)
        }
        // A webhook removed since the notice was queued: nothing to send, nothing to log.
        if channel == .webhook, recipient.webhook == nil { return }
        guard let claim = try await claim(key: key, channel: channel, title: notice.text.title) else { return }
        do {
            try await send(notice, key: key, on: channel, to: recipient)
        } catch {
            let last = attempt >= DeliverNotificationJob.maximumAttempts
            try await record(key: key, status: last ? .failed : .retrying, detail: describe(error))
            ServerMetrics.countDelivery(on: channel.rawValue, succeeded: false)
            throw error
        }
        let detail = [
            sentDetail, notice.isLate ? "Sent late." : nil,
            claim == .afterInterruption ? Self.resentAfterInterruption : nil,
        ].compactMap { $0 }
        try await record(key: key, status: .sent, detail: detail.isEmpty ? nil : detail.joined(separator: " "))
        ServerMetrics.countDelivery(on: channel.rawValue, succeeded: true)
    }

    /// A "Send test" from Settings: sent at once on an outside channel, logged like the real ones, never
    /// retried.
    func sendTest(_ notice: OutgoingNotice, on channel: NotificationChannel, to recipient: Recipient) async throws {
        try await deliver(
            notice, key: "test:\(dependencies.newUUID().lowercasedText)", on: channel, to: recipient,
            attempt: DeliverNotificationJob.maximumAttempts, sentDetail: "A test.")
    }

    private func send(_ notice: OutgoingNotice, key: String, on channel: NotificationChannel, to recipient: Recipient)
        async throws
    {
        switch channel {
        case .inApp:
            return
        case .webhook:
            guard let target = recipient.webhook else { return }
            let request = WebhookPayload.request(for: target, notice: notice)
            try await dependencies.webhooks.post(json: request.body, to: request.url, idempotencyKey: key)
        case .email:
            try await dependencies.mailer.send(
                MailMessage(
                    from: recipient.mailFrom, to: [recipient.email], subject: notice.text.title,
                    body: notice.text.body + "\n\n" + notice.link + "\n", date: dependencies.now(),
                    messageID: "\(dependencies.newUUID().lowercasedText)@locify"))
        }
    }

    private func storeInApp(_ notice: OutgoingNotice, key: String) async throws {
        try await TableWriter(NotificationsTable.self, on: database).insert(
            [
                .owner: userID, .reminder: notice.reminderID, .contact: notice.contactID, .title: notice.text.title,
                .body: notice.text.body, .occurrenceDate: notice.occurrence.description,
                .daysBefore: notice.daysBefore, .isLate: notice.isLate, .dedupeKey: key,
                .createdAt: dependencies.now(),
            ], onConflict: [.dedupeKey])
    }

    /// How a delivery came to be attempted: afresh (its first try, or a retry after a certain failure), or
    /// again after a try that was cut off, which the log says.
    private enum Claim {
        case fresh, afterInterruption
    }

    /// Logs the delivery as being sent and says whether to send it: nil when it must not be.
    private func claim(key: String, channel: NotificationChannel, title: String) async throws -> Claim? {
        let now = dependencies.now()
        let deliveries = TableWriter(NotificationDeliveriesTable.self, on: database)
        let inserted = try await deliveries.insert(
            [
                .owner: userID, .channel: channel.rawValue, .title: title, .status: Status.sending.rawValue,
                .attempts: 1, .dedupeKey: key, .createdAt: now, .updatedAt: now,
            ], onConflict: [.dedupeKey], returning: [.id])
        if !inserted.isEmpty { return .fresh }
        let retried = try await deliveries.update(
            [.status: Status.sending.rawValue, .updatedAt: now], computing: [.attempts: #""attempts" + 1"#],
            where: #""dedupe_key" = \#(bind: key) AND "status" = \#(bind: Status.retrying.rawValue)"#)
        if retried > 0 { return .fresh }
        if channel == .webhook {
            let resent = try await deliveries.update(
                [.updatedAt: now], computing: [.attempts: #""attempts" + 1"#],
                where: #""dedupe_key" = \#(bind: key) AND "status" = \#(bind: Status.sending.rawValue)"#)
            return resent > 0 ? .afterInterruption : nil
        }
        try await deliveries.update(
            [
                .status: Status.interrupted.rawValue,
                .detail: "The server stopped while sending; it is not sent again, so it may not have arrived.",
                .updatedAt: now,
            ], where: #""dedupe_key" = \#(bind: key) AND "status" = \#(bind: Status.sending.rawValue)"#)
        return nil
    }

    private func record(key: String, status: Status, detail: String?) async throws {
        try await TableWriter(NotificationDeliveriesTable.self, on: database).update(
            [.status: status.rawValue, .detail: detail, .updatedAt: dependencies.now()],
            where: #""dedupe_key" = \#(bind: key)"#)
    }

    private func describe(_ error: any Error) -> String {
        String(String(describing: error).prefix(500))
    }
}
