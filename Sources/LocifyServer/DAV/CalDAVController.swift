import Foundation
import LocifyCore
import Vapor

/// CalDAV (RFC 4791): the calendar home with the Reminders, Birthdays and Tasks calendars, `PROPFIND`,
/// `REPORT` (`calendar-multiget`, `calendar-query` with time ranges, `sync-collection` of RFC 6578), `GET`
/// of each object, and `PUT` and `DELETE` of tasks. Discovery, sign-in and the principal are CardDAV's
/// (`CardDAVController`): one DAV tree serves both.
struct CalDAVController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let card = CardDAVController()
        routes.on(.OPTIONS, DAVPaths.calendarHome, use: card.options)
        let signedIn = routes.grouped(DAVFailureMiddleware(), DAVAuthenticator())
        signedIn.on(.PROPFIND, DAVPaths.calendarHome) { try await propfindHome($0) }
        for calendar in DAVCalendar.allCases {
            routes.on(.OPTIONS, calendar.path, use: card.options)
            routes.on(.OPTIONS, calendar.objectPath, use: card.options)
            signedIn.on(.PROPFIND, calendar.path) { try await propfind($0, calendar) }
            signedIn.on(.PROPFIND, calendar.objectPath) { try await propfindObject($0, calendar) }
            signedIn.on(.REPORT, calendar.path) { try await report($0, calendar) }
            signedIn.on(.GET, calendar.objectPath) { try await object($0, calendar) }
            signedIn.on(.PUT, calendar.objectPath) { try await put($0, calendar) }
            signedIn.on(.DELETE, calendar.objectPath) { try await delete($0, calendar) }
        }
    }

    // MARK: PROPFIND

    func propfindHome(_ request: Request) async throws -> Response {
        let asked = try Self.propertyRequest(of: request)
        var responses = [
            DAVMultistatus.Response(
                href: DAVPaths.collection(DAVPaths.calendarHome), known: Self.homeProperties, request: asked)
        ]
        if request.headers.first(name: "Depth") != "0" {
            for calendar in DAVCalendar.allCases {
                responses.append(
                    .init(
                        href: DAVPaths.collection(calendar.path),
                        known: try await calendarProperties(CalendarCollection(request, calendar)), request: asked))
            }
        }
        return CardDAVController.multistatus(DAVMultistatus(responses: responses))
    }

    func propfind(_ request: Request, _ calendar: DAVCalendar) async throws -> Response {
        let asked = try Self.propertyRequest(of: request)
        let collection = try CalendarCollection(request, calendar)
        var responses = [
            DAVMultistatus.Response(
                href: DAVPaths.collection(calendar.path), known: try await calendarProperties(collection),
                request: asked)
        ]
        if request.headers.first(name: "Depth") != "0" {
            responses += try await collection.allObjects().map { Self.member($0, asked: asked) }
        }
        return CardDAVController.multistatus(DAVMultistatus(responses: responses))
    }

    func propfindObject(_ request: Request, _ calendar: DAVCalendar) async throws -> Response {
        let asked = try Self.propertyRequest(of: request)
        let name = try Self.objectName(of: request)
        guard let object = try await CalendarCollection(request, calendar).objects(named: [name])[name] else {
            throw DAVFailure.notFound
        }
        return CardDAVController.multistatus(DAVMultistatus(responses: [Self.member(object, asked: asked)]))
    }

    // MARK: REPORT

    func report(_ request: Request, _ calendar: DAVCalendar) async throws -> Response {
        let collection = try CalendarCollection(request, calendar)
        switch try DAVRequestBody.report(Data(buffer: request.body.data ?? ByteBuffer())) {
        case .calendarMultiget(let asked, let hrefs, let calendarData):
            let names = hrefs.map { DAVPaths.objectName(inHref: $0, of: calendar) }
            let objects = try await collection.objects(named: names.compactMap { $0 })
            let responses = zip(hrefs, names).map { href, name -> DAVMultistatus.Response in
                guard let object = name.flatMap({ objects[$0] }) else { return .init(href: href, status: 404) }
                return Self.member(object, asked: asked, only: calendarData)
            }
            return CardDAVController.multistatus(DAVMultistatus(responses: responses))
        case .calendarQuery(let asked, let filter, let calendarData):
            var objects = try await collection.allObjects()
            if let filter {
                // RFC 4791 9.7.1: the filter's top names the calendar itself.
                guard filter.name == "VCALENDAR", !filter.isNotDefined else {
                    throw DAVFailure(
                        status: .forbidden, condition: .calDAV("valid-filter"),
                        message: "A calendar-query's filter starts with the comp-filter VCALENDAR.")
                }
                if let part = filter.unsupportedPart {
                    throw DAVFailure(
                        status: .forbidden, condition: .calDAV("supported-filter"),
                        message: "Locify does not evaluate \(part).")
                }
                objects = objects.filter { CalendarObjectOutline(text: $0.text).matches(filter) }
            }
            return CardDAVController.multistatus(
                DAVMultistatus(responses: objects.map { Self.member($0, asked: asked, only: calendarData) }))
        case .syncCollection(let token, let asked, let limit, _):
            let state = try await collection.logState()
            let alarm = try await collection.alarmMinutes()
            let changed: [CalendarObject]
            let deleted: [String]
            if token.isEmpty {
                (changed, deleted) = (try await collection.allObjects(), [])
            } else {
                guard let seen = collection.revision(ofToken: token, state: state, alarm: alarm) else {
                    throw DAVFailure(status: .forbidden, condition: .dav("valid-sync-token"))
                }
                (changed, deleted) = try await collection.changes(after: seen.revision, everything: seen.everything)
            }
            if let limit, changed.count + deleted.count > limit {
                throw DAVFailure(status: .insufficientStorage, condition: .dav("number-of-matches-within-limits"))
            }
            let responses =
                changed.map { Self.member($0, asked: asked) }
                + deleted.map { DAVMultistatus.Response(href: $0, status: 404) }
            return CardDAVController.multistatus(
                DAVMultistatus(responses: responses, syncToken: collection.token(state, alarm: alarm)))
        case .addressBookMultiget, .addressBookQuery, .unsupported:
            throw DAVFailure(status: .forbidden, condition: .dav("supported-report"))
        }
    }

    // MARK: Objects

    func object(_ request: Request, _ calendar: DAVCalendar) async throws -> Response {
        let name = try Self.objectName(of: request)
        guard let object = try await CalendarCollection(request, calendar).objects(named: [name])[name] else {
            throw DAVFailure.notFound
        }
        if let known = request.headers.first(name: .ifNoneMatch), EntityTags(known).matches(object.etag, weakly: true) {
            return Response(status: .notModified, headers: ["ETag": object.etag])
        }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: Self.contentType(of: calendar))
        headers.replaceOrAdd(name: .eTag, value: object.etag)
        return Response(status: .ok, headers: headers, body: .init(string: object.text))
    }

    /// A to-do written by its client: a new task at a new file name, else the task there changed to what
    /// the to-do says (its title, description and whether it is done). `If-None-Match: *` and `If-Match`
    /// are honoured as for cards (412).
    func put(_ request: Request, _ calendar: DAVCalendar) async throws -> Response {
        try Self.requireWritable(calendar)
        let name = try Self.objectName(of: request)
        let user = try request.requireUser()
        let text = String(decoding: (request.body.data ?? ByteBuffer()).readableBytesView, as: UTF8.self)
        let written: CalendarTask
        switch ICalendar.readTask(text) {
        case .success(let task): written = task
        case .failure(let problem):
            throw DAVFailure(
                status: problem.isUnsupportedComponent ? .forbidden : .badRequest,
                condition: .calDAV(
                    problem.isUnsupportedComponent ? "supported-calendar-component" : "valid-calendar-data"),
                message: problem.reason)
        }
        let created: Bool
        do {
            created = try await request.db.write(ownedBy: user.id, at: request.dependencies.now()) { _ in
                let existing = try await CalendarCollection(request, .tasks).objects(named: [name])[name]
                try CardDAVController.checkPreconditions(of: request, currentTag: existing?.etag)
                let sameUID = try await request.database.plainRows(
                    """
                    SELECT "file_name" FROM "dav_tasks" WHERE "user_id" = \(bind: user.id) AND "task_id" IS NOT NULL \
                    AND "uid" = \(bind: written.uid) AND "file_name" <> \(bind: name)
                    """, columns: ["file_name"])
                if let other = try sameUID.first?.requiredText(0) {
                    throw DAVFailure(
                        status: .forbidden, condition: .calDAV("no-uid-conflict"),
                        message: "The to-do with this UID is at \(DAVCalendar.tasks.objectPath(other).path).")
                }
                let draft = ToDoDraft(
                    title: written.title, description: written.description, isCompleted: written.isCompleted)
                let task: ToDo
                if let stored = existing?.task {
                    task = try await request.tasks().update(stored.id, contactID: nil) { _ in draft }
                } else {
                    // The client's file name is the task's uuid when it is one no record has.
                    var uuid: UUID?
                    if let named = DAVPaths.uuid(inObjectName: name),
                        case .nowhere = try await SyncLocator(TasksTable.self).find(
                            [named], ownedBy: user.id, on: request.database)[named]
                    {
                        uuid = named
                    }
                    task = try await request.tasks().create(contactID: nil, draft, uuid: uuid)
                }
                try await DAVTasksTable.keep(
                    text, uid: written.uid, fileName: name, for: task, on: request.database,
                    now: request.dependencies.now())
                return existing == nil
            }
        } catch let failure as ValidationFailure {
            throw DAVFailure(
                status: .badRequest, condition: .calDAV("valid-calendar-data"),
                message: failure.messages.joined(separator: " "))
        }
        return Response(status: created ? .created : .noContent)
    }

    func delete(_ request: Request, _ calendar: DAVCalendar) async throws -> Response {
        try Self.requireWritable(calendar)
        let name = try Self.objectName(of: request)
        let user = try request.requireUser()
        try await request.db.write(ownedBy: user.id, at: request.dependencies.now()) { _ in
            guard let existing = try await CalendarCollection(request, .tasks).objects(named: [name])[name],
                let task = existing.task
            else { throw DAVFailure.notFound }
            try CardDAVController.checkPreconditions(of: request, currentTag: existing.etag)
            try await request.tasks().delete(task.id)
        }
        return Response(status: .noContent)
    }

    static func requireWritable(_ calendar: DAVCalendar) throws {
        guard calendar.isWritable else {
            throw DAVFailure(
                status: .forbidden, condition: .dav("need-privileges"),
                message:
                    "The \(calendar.displayName) calendar follows your contacts and reminders: change them in Locify.")
        }
    }

    // MARK: Properties

    static let homeProperties: [(DAVName, DAVMultistatus.Value)] =
        CardDAVController.principalLinks + [
            (.dav("resourcetype"), .elements([.dav("collection")])), (.dav("displayname"), .text("Calendars")),
        ]

    func calendarProperties(_ collection: CalendarCollection) async throws -> [(DAVName, DAVMultistatus.Value)] {
        let calendar = collection.calendar
        let token = collection.token(try await collection.logState(), alarm: try await collection.alarmMinutes())
        let privileges =
            ["read", "read-current-user-privilege-set"]
            + (calendar.isWritable ? ["write", "write-properties", "write-content", "bind", "unbind"] : [])
        return CardDAVController.principalLinks + [
            (.dav("resourcetype"), .elements([.dav("collection"), .calDAV("calendar")])),
            (.dav("displayname"), .text(calendar.displayName)),
            (.calDAV("calendar-description"), .text(calendar.summary)),
            (.calDAV("supported-calendar-component-set"), .markup(#"<cal:comp name="\#(calendar.component)"/>"#)),
            (
                .calDAV("supported-calendar-data"),
                .markup(#"<cal:calendar-data content-type="text/calendar" version="2.0"/>"#)
            ),
            (.calDAV("max-resource-size"), .text(String(BodyLimit.standard.bytes(collection.request.application)))),
            (.dav("sync-token"), .text(token)),
            (.calendarServer("getctag"), .text(token)),
            (
                .dav("supported-report-set"),
                .markup(
                    ["cal:calendar-multiget", "cal:calendar-query", "d:sync-collection"].map {
                        "<d:supported-report><d:report><\($0)/></d:report></d:supported-report>"
                    }.joined())
            ),
            (
                .dav("current-user-privilege-set"),
                .markup(privileges.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined())
            ),
        ]
    }

    static func member(
        _ object: CalendarObject, asked: DAVPropertyRequest,
        only calendarData: DAVCalendarDataRequest = DAVCalendarDataRequest()
    ) -> DAVMultistatus.Response {
        var known: [(DAVName, DAVMultistatus.Value)] = [
            (.dav("getetag"), .text(object.etag)),
            (.dav("getcontenttype"), .text(contentType(of: object.calendar))),
            (.dav("getcontentlength"), .text(String(object.text.utf8.count))),
            (.dav("resourcetype"), .elements([])),
        ]
        // Its text only when asked for by name, as RFC 4791 says (not in `allprop`).
        if case .some(let names) = asked, names.contains(.calDAV("calendar-data")) {
            known.append((.calDAV("calendar-data"), .text(calendarData.selected(from: object.text))))
        }
        return .init(href: object.href, known: known, request: asked)
    }

    static func contentType(of calendar: DAVCalendar) -> String {
        "text/calendar; charset=utf-8; component=\(calendar.component.lowercased())"
    }

    static func propertyRequest(of request: Request) throws -> DAVPropertyRequest {
        try DAVRequestBody.propertyRequest(ofPropfind: Data(buffer: request.body.data ?? ByteBuffer()))
    }

    static func objectName(of request: Request) throws -> String {
        guard let name = request.parameters.get(PathParameter.objectName.name), !name.isEmpty else {
            throw DAVFailure.notFound
        }
        return name
    }
}
