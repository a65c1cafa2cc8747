import LocifyAPI
import LocifyCore
import Vapor

/// `/api/reminders`, `/api/contacts/{id}/reminders` and `/api/reminders/upcoming/{month}`.
struct RemindersAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ReminderPaths.api, use: index)
        routes.post(ReminderPaths.api, use: create)
        routes.get(ReminderPaths.apiUpcoming, use: upcoming)
        routes.get(ReminderPaths.apiTimeline, use: timeline)
        routes.get(ReminderPaths.apiTimelineGroup, use: timelineGroup)
        routes.get(ReminderPaths.apiFeed, use: feed)
        routes.post(ReminderPaths.apiDone, use: done)
        routes.get(ReminderPaths.apiReminder, use: show)
        routes.put(ReminderPaths.apiReminder, use: update)
        routes.delete(ReminderPaths.apiReminder, use: delete)
        routes.get(ReminderPaths.apiContactReminders, use: indexOfContact)
        routes.post(ReminderPaths.apiContactReminders, use: createForContact)
    }

    func index(request: Request) async throws -> PageResource<ReminderResource> {
        try await page(request, contactID: try request.contactFilter(), path: SitePaths.apiReminders)
    }

    func indexOfContact(request: Request) async throws -> PageResource<ReminderResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: ReminderPaths.apiContactReminders(contactID))
    }

    private func page(
        _ request: Request, contactID: Int?, path: some SiteAddress
    ) async throws -> PageResource<ReminderResource> {
        let query = try ListQuery(from: request, defaultSort: ReminderService.defaultSort)
        let (reminders, window) = try await request.reminders().page(
            contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.reminderResources(reminders), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<ReminderResource> {
        let reminder = try await request.reminders().reminder(try request.pathID(.reminderID))
        return DataEnvelope(data: try await request.reminderResource(reminder))
    }

    func create(request: Request) async throws -> Response {
        let input = try request.reminderInput()
        return try await created(request, input: input, contactID: input.contactID)
    }

    /// `POST /api/contacts/{id}/reminders`: the path names the contact.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, input: try request.reminderInput(), contactID: contactID)
    }

    private func created(_ request: Request, input: ReminderInput, contactID: Int?) async throws -> Response {
        let reminders = try request.reminders()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: RemindersTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.reminderResource(try await reminders.reminder($0)))
        } create: {
            let reminder = try await reminders.create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
            return DataEnvelope(data: try await request.reminderResource(reminder))
        }
    }

    func update(request: Request) async throws -> DataEnvelope<ReminderResource> {
        let input = try request.reminderInput()
        let reminder = try await request.reminders().update(
            try request.pathID(.reminderID), contactID: input.contactID, typeErrors: input.typeErrors
        ) { input.merged(into: $0) }
        return DataEnvelope(data: try await request.reminderResource(reminder))
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.reminderID)
        try await request.reminders().delete(id)
        return DeletedResource(id: id)
    }

    /// Marks a one-time reminder done (Locify's own).
    func done(request: Request) async throws -> DataEnvelope<ReminderResource> {
        let reminder = try await request.reminders().markDone(try request.pathID(.reminderID))
        return DataEnvelope(data: try await request.reminderResource(reminder))
    }

    /// Overdue, today, this week (from the user's first day of the week, Monday unless set), this month and
    /// later (Locify's own): every group's count and its first `limit` reminders (100 unless asked), with
    /// the URL of the rest, so ten thousand reminders answer as small as a hundred.
    func timeline(request: Request) async throws -> DataEnvelope<ReminderTimelineResource> {
        let limit = try request.pageSelection(defaultLimit: ReminderTimelineResource.defaultLimit).limit
        let (timeline, placements) = try await request.reminderTimeline()
        let shown = Timeline<Int>.Group.allCases.flatMap { timeline[$0].prefix(limit) }
        let outlines = try await request.reminders().outlines(shown.map { placements[$0.item].id })
        let summaries = try await request.timelineContacts(of: Array(outlines.values))
        return DataEnvelope(
            data: ReminderTimelineResource(
                timeline, reminder: { outlines[placements[$0].id] }, limit: limit,
                nextPage: { group in request.timelinePageURLs(of: group, limit: limit)(2) },
                contact: { summaries[$0.contactID] }))
    }

    /// `GET /api/reminders/timeline/{group}`: one group of the timeline, page by page (`page`, `limit`).
    func timelineGroup(request: Request) async throws -> PageResource<ReminderTimelineResource.Item> {
        guard let group = request.pathText(.timelineGroup).flatMap(Timeline<Int>.Group.init(rawValue:)) else {
            throw AppError.notFound
        }
        let selection = try request.pageSelection(defaultLimit: ReminderTimelineResource.defaultLimit)
        let (timeline, placements) = try await request.reminderTimeline()
        let entries = timeline[group]
        let window = PageWindow(page: selection.page, limit: selection.limit, total: entries.count)
        let page = entries.dropFirst(min(window.offset, entries.count)).prefix(window.limit)
        let outlines = try await request.reminders().outlines(page.map { placements[$0.item].id })
        let summaries = try await request.timelineContacts(of: Array(outlines.values))
        return PageResource(
            items: ReminderTimelineResource.items(page, reminder: { outlines[placements[$0].id] }) {
                summaries[$0.contactID]
            },
            window: window, path: request.absoluteURL(ReminderPaths.apiTimelineGroup(group.rawValue)),
            pageURL: request.timelinePageURLs(of: group, limit: selection.limit))
    }

    /// The address of the user's calendar feed (Locify's own), made on first use.
    func feed(request: Request) async throws -> DataEnvelope<ReminderFeedResource> {
        let secret = try await request.notificationSettings().feedSecret()
        return DataEnvelope(data: ReminderFeedResource(url: request.absoluteURL(ReminderPaths.feed(secret))))
    }

    /// Every occurrence in the month `month` months from the user's current one, by date. This month's
    /// list starts today, so what is due today stays on it all day.
    func upcoming(request: Request) async throws -> DataEnvelope<[UpcomingReminderResource]> {
        guard let offset = request.pathText(.monthOffset).flatMap(Int.init), (-1200...1200).contains(offset) else {
            throw AppError.notFound
        }
        let today = request.today
        guard let range = UpcomingReminders.range(monthOffset: offset, today: today) else {
            throw AppError.notFound
        }
        let reminders = try await request.reminders().reminders(occurringIn: range)
        guard let occurrences = UpcomingReminders.occurrences(of: reminders, monthOffset: offset, today: today) else {
            throw AppError.notFound
        }
        let contacts = try await request.contacts().contacts(occurrences.map(\.reminder.contactID))
        var shortContacts: [Int: ContactShortResource] = [:]
        for (id, contact) in contacts {
            shortContacts[id] = request.contactShortResource(contact, currentYear: today.year)
        }
        return DataEnvelope(
            data: occurrences.compactMap { date, reminder in
                shortContacts[reminder.contactID].map { UpcomingReminderResource(reminder, on: date, contact: $0) }
            })
    }
}

extension Request {
    /// The signed-in user's timeline, over positions in the placements it was made of.
    fileprivate func reminderTimeline() async throws -> (Timeline<Int>, [ReminderPlacement]) {
        let placements = try await self.reminders().placements()
        let weekStart = try await notificationSettings().preferences().weekStartsOn
        return (Timeline.of(placements, today: today, weekStartsOn: weekStart), placements)
    }

    /// The contacts of the reminders shown, each summary made once however many reminders it has.
    fileprivate func timelineContacts(of shown: [ReminderOutline]) async throws
        -> [Int: ReminderTimelineResource.ContactSummary]
    {
        let contacts = try await self.contacts().contacts(shown.map(\.contactID))
        var summaries: [Int: ReminderTimelineResource.ContactSummary] = [:]
        for (id, contact) in contacts {
            summaries[id] = .init(id: contact.id, name: contact.completeName, avatar: avatarResource(contact))
        }
        return summaries
    }

    fileprivate func timelinePageURLs(of group: Timeline<Int>.Group, limit: Int) -> @Sendable (Int) -> String {
        pageURLs(
            of: ReminderPaths.apiTimelineGroup(group.rawValue),
            keeping: [("limit", limit == ReminderTimelineResource.defaultLimit ? nil : String(limit))])
    }
}
