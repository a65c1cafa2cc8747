import Crypto
import LocifyCore
import Vapor

/// `GET /feeds/{secret}/reminders.ics`: every reminder of the secret's owner as an all-day event, for a
/// calendar app to subscribe to. The secret is the only credential, so a wrong one is simply not found.
struct ReminderFeedController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ReminderPaths.feed, use: feed)
    }

    func feed(request: Request) async throws -> Response {
        guard let secret = request.pathText(.feedSecret),
            let ownerID = try await NotificationSettingsService.owner(ofFeedSecret: secret, on: request.db),
            let user = try await request.db.user(ownerID)
        else { throw AppError.notFound }
        let body = try await ReminderCalendar.text(of: user, for: request)
        let etag =
            "\"" + SHA256.hash(data: Data(body.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .eTag, value: etag)
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        if request.headers.first(name: .ifNoneMatch)?.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == etag
        }) == true {
            return Response(status: .notModified, headers: headers)
        }
        headers.replaceOrAdd(name: .contentType, value: "text/calendar; charset=utf-8")
        headers.replaceOrAdd(name: .contentDisposition, value: #"inline; filename="locify-reminders.ics""#)
        return Response(status: .ok, headers: headers, body: .init(string: body))
    }
}

/// Settings → Import and export: the signed-in person's reminders as one iCalendar file to keep or to
/// take to another calendar.
struct ReminderDownloadWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.settingsExportReminders, use: download)
    }

    func download(request: Request) async throws -> Response {
        let body = try await ReminderCalendar.text(of: try request.requireUser(), for: request)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "text/calendar; charset=utf-8")
        headers.replaceOrAdd(name: .contentDisposition, value: #"attachment; filename="locify-reminders.ics""#)
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
        return Response(status: .ok, headers: headers, body: .init(string: body))
    }
}

/// Every reminder of an account as an iCalendar text: the feed and the download.
enum ReminderCalendar {
    static func text(of user: AuthenticatedUser, for request: Request) async throws -> String {
        let dependencies = request.dependencies
        let reminders = try await ReminderService(database: request.db, ownerID: user.id, dependencies: dependencies)
            .all()
        let contacts = try await ContactService(database: request.db, owner: user, dependencies: dependencies)
            .contacts(reminders.map(\.contactID))
        let preferences = try await NotificationSettingsService(
            database: request.db, ownerID: user.id, dependencies: dependencies
        ).preferences()
        let events = reminders.map { reminder in
            CalendarEvent(
                reminder, of: contacts[reminder.contactID], alarmMinutesAfterMidnight: preferences.minutesAfterMidnight,
                url: request.absoluteURL(ContactPaths.contact(reminder.contactID)))
        }
        // The stamp is the newest change, not the time of the request, so an unchanged feed keeps its ETag.
        let stamp = reminders.map(\.updatedAt).max() ?? user.updatedAt
        return ICalendar.write(events, calendarName: "Locify reminders", stamp: stamp)
    }
}

extension CalendarEvent {
    /// A reminder as the calendar feed and CalDAV's Reminders calendar show it: "<contact>: <title>", its
    /// schedule, an alert at the notification time and the contact's page.
    init(_ reminder: Reminder, of contact: Contact?, alarmMinutesAfterMidnight: Int, url: String) {
        self.init(
            uid: "\(reminder.uuid.lowercasedText)@locify",
            title: contact.map { "\($0.completeName): \(reminder.fields.title)" } ?? reminder.fields.title,
            description: reminder.fields.description, schedule: reminder.fields.schedule,
            alarmMinutesAfterMidnight: alarmMinutesAfterMidnight, url: url)
    }
}
