import Foundation
import LocifyCore
import Vapor

// Each contact page is a typed context built by a pure initialiser (tests call it without HTTP), a
// loader that fetches what the context needs, and a template under Views/contacts/.

/// A contact as the list and the detail page show it.
struct ContactCard: Encodable {
    let id: Int
    let name: String
    let nickname: String?
    /// The first e-mail, where a list shows it.
    let email: String?
    let avatar: AvatarView
    let isStarred: Bool
    let url: String

    /// `pictureURL` is the contact's photo or Gravatar (`Request.pictureURL`), nil for initials.
    init(_ contact: Contact, email: String? = nil, pictureURL: String? = nil, size: AvatarView.Size = .list) {
        id = contact.id
        name = contact.completeName
        nickname = contact.fields.nickname
        self.email = email
        avatar = AvatarView(contact, imageURL: pictureURL, size: size)
        isStarred = contact.fields.isStarred
        url = ContactPaths.contact(contact.id).path
    }
}

/// `GET /contacts`: the list, searchable, paged, current or archived.
enum ContactListPage {
    static let pageSize = 20

    struct Context: Encodable {
        let layout: LayoutContext
        let contacts: [ContactCard]
        let search: String
        /// Keeps a search among the archived contacts there.
        let archivedField: FormField?
        let total: Int
        let hasContacts: Bool
        let summary: String
        let previousURL: String?
        let nextURL: String?
        let pageLabel: String
        let newContactURL: String
        /// Where an account without contacts is shown the ways to bring them in (the first-run page).
        let startURL: String
        /// Why the list is empty: a search or a tag found nothing, or nothing is archived; else there are
        /// no contacts yet.
        let emptyReason: String?
        let listURL: String
        let toggleArchivedURL: String
        let toggleArchivedLabel: String
        let searchField: FormField
        /// The tag filter: "Any tag", then the account's tags.
        let tagField: FormField
        let hasTags: Bool

        /// `tag` narrows the list to the contacts carrying it; `allTags` fill the filter.
        init(
            contacts: [Contact], emails: [Int: String] = [:], window: PageWindow, search: String, archived: Bool,
            tag: Tag? = nil, allTags: [Tag] = [], session: PageSession, pictureURL: (Contact) -> String? = { _ in nil }
        ) {
            func pageURL(_ number: Int?) -> String? {
                number.map {
                    SitePaths.contacts.path(query: [
                        ("q", search), ("tag", tag.map { String($0.id) }), ("archived", archived ? "1" : nil),
                        ("page", String($0)),
                    ])
                }
            }
            let noun = window.total == 1 ? "contact" : "contacts"
            layout = LayoutContext(
                title: archived ? "Archived contacts" : "Contacts", section: .contacts, session: session)
            self.contacts = contacts.map { ContactCard($0, email: emails[$0.id], pictureURL: pictureURL($0)) }
            self.search = search
            archivedField = archived ? .hidden("archived", value: "1") : nil
            total = window.total
            hasContacts = !contacts.isEmpty
            let tagged = tag.map { " tagged “\($0.name)”" } ?? ""
            summary =
                search.isEmpty
                ? "\(window.total) \(archived ? "archived " : "")\(noun)\(tagged)"
                : "\(window.total) \(noun)\(tagged) matching “\(search)”"
            previousURL = pageURL(window.previousPage)
            nextURL = pageURL(window.nextPage)
            pageLabel = "Page \(min(window.page, window.lastPage)) of \(window.lastPage)"
            newContactURL = ContactPaths.new.path
            startURL = SitePaths.start.path
            emptyReason =
                !search.isEmpty || tag != nil
                ? "No contact matches your search." : archived ? "No archived contacts." : nil
            listURL = SitePaths.contacts.path
            toggleArchivedURL = SitePaths.contacts.path(query: [("archived", archived ? nil : "1")])
            toggleArchivedLabel = archived ? "Show current contacts" : "Show archived contacts"
            searchField = FormField(
                "q", label: "Search contacts", control: .search, value: search,
                placeholder: "Search by name, e-mail or phone number", isLabelHidden: true
            ).identified(as: "q")
            tagField = FormField(
                "tag", label: "Only contacts tagged", control: .select,
                options: [SelectOption(value: "", label: "Any tag", isSelected: tag == nil)]
                    + allTags.map { SelectOption(value: String($0.id), label: $0.name, isSelected: $0.id == tag?.id) },
                isLabelHidden: true
            ).identified(as: "tag-filter")
            hasTags = !allTags.isEmpty
        }
    }

    static func load(_ request: Request) async throws -> Context {
        let search = request.queryParameters["q"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let archived = request.queryParameters["archived"] == "1"
        let page = try request.pageSelection(defaultLimit: pageSize)
        var tag: Tag?
        if let text = request.queryParameters["tag"], !text.isEmpty {
            guard let id = LooseValue.integer(text) else { throw AppError.notFound }
            tag = try await request.tags().tag(id)
        }
        async let allTags = request.tags().all().map(\.tag)
        // New amounts are offered in the currency the person used last, not always in dollars.
        async let latestCurrency = request.db.latestCurrency(
            in: [GiftsTable.name, DebtsTable.name], ownerID: try request.requireUser().id)
        let (contacts, window) = try await request.contacts().page(
            matching: search, taggedWith: tag?.id, order: .listing, page: page, archived: archived)
        let emails = try await request.contactFields().firstEmails(ofContacts: contacts.map(\.id))
        return Context(
            contacts: contacts, emails: emails, window: window, search: search, archived: archived, tag: tag,
            allTags: try await allTags, session: request.pageSession, pictureURL: request.pictureURL)
    }
}

/// `GET /contacts/{id}`: one contact.
enum ContactPage {
    struct Context: Encodable {
        struct Fact: Encodable {
            let label: String
            let value: String
            /// The push field it shows as it is, for the offline app to show a change waiting in its place.
            var field: String? = nil
            /// The push fields it shows joined (the ones set, by `joiner`), for the same; `field:path` names
            /// where the synced resource keeps one stored elsewhere than under its push name.
            var composedOf: String? = nil
            var joiner: String? = nil
        }

        let layout: LayoutContext
        let card: ContactCard
        let facts: [Fact]
        let description: String?
        let isArchived: Bool
        let editURL: String
        let introductionURL: String
        /// The contact is the owner themselves; the form says so or takes it back.
        let isMe: Bool
        let meURL: String
        let meField: FormField
        let deleteURL: String
        /// The delete dialog's form, kept on the device when the server cannot be reached.
        let deleteOffline: OfflineForm
        let listURL: String
        let addresses: [AddressCard]
        let newAddressURL: String
        let vcardURL: String
        let reminders: [ReminderLine]
        let newReminderURL: String
        let pictures: ContactPicturesSection?
        let fields: ContactFieldsSection
        let tags: ContactTagsSection
        let notes: ContactNotesSection
        let tasks: ContactTasksSection
        let calls: ContactCallsSection
        let relationships: ContactRelationshipsSection
        /// The sections after how to reach the person, their addresses and reminders sit folded under one
        /// summary (a tap away on a phone); open when one of their forms was refused.
        let isMoreOpen: Bool
        let moreSummary: String
        let debts: ContactDebtsSection
        let gifts: ContactGiftsSection
        let pets: ContactPetsSection
        let lifeEvents: ContactLifeEventsSection
        let conversations: ContactConversationsSection
        let documents: ContactDocumentsSection?
        let occupations: ContactOccupationsSection?

        /// `today` is the owner's day, for ages and reminders; `preferredApp` opens directions.
        /// `allTags` are the account's, suggested when adding; `problem` is a refused note, task or tag
        /// form, shown beside it.
        init(
            aggregate: ContactAggregate, reminders: [Reminder] = [], notes: [Note] = [], tasks: [ToDo] = [],
            calls: [Call] = [], debts: [Debt] = [], gifts: [Gift] = [], pets: [Pet] = [],
            lifeEvents: [LifeEvent] = [], conversations: [Conversation] = [], allTags: [Tag] = [],
            defaultCurrency: String = Money.defaultCurrency, contactFields: [ContactField] = [],
            fieldKinds: [ContactFieldType] = [],
            today: CalendarDate, preferredApp: MapsApp, tilesEnabled: Bool = true,
            session: PageSession, pictureURL: String? = nil, pictures: ContactPicturesSection? = nil,
            documents: ContactDocumentsSection? = nil, occupations: ContactOccupationsSection? = nil,
            problem: FormProblem? = nil
        ) {
            self.documents = documents
            self.occupations = occupations
            let contact = aggregate.contact
            let fields = contact.fields
            var facts: [Fact] = []
            if let nickname = fields.nickname {
                facts.append(.init(label: "Nickname", value: nickname, field: "nickname"))
            }
            if let birthdate = fields.birthdate {
                facts.append(.init(label: "Birthday", value: ContactPage.describe(birthdate, today: today)))
            }
            if let gender = fields.gender { facts.append(.init(label: "Gender", value: gender.name)) }
            if let work = ContactPage.describeWork(job: fields.job, company: fields.company) {
                facts.append(
                    .init(
                        label: "Work", value: work,
                        composedOf: "job:information.career.job company:information.career.company",
                        joiner: ContactPage.workJoiner))
            }
            let introduction = contact.introduction
            if let story = introduction.story { facts.append(.init(label: "How you met", value: story)) }
            if let met = ContactPage.describeMeeting(introduction, through: aggregate.metThrough) {
                facts.append(.init(label: "Met", value: met))
            }
            if let food = contact.foodPreferences { facts.append(.init(label: "Food", value: food)) }
            facts.append(.init(label: "Added", value: Timestamp.day(contact.createdAt)))
            layout = LayoutContext(title: contact.completeName, section: .contacts, session: session)
            card = ContactCard(contact, pictureURL: pictureURL, size: .page)
            self.pictures = pictures
            self.facts = facts
            description = fields.description
            isArchived = fields.isArchived
            editURL = ContactPaths.edit(contact.id).path
            introductionURL = ContactPaths.introduction(contact.id).path
            isMe = contact.isMe
            meURL = ContactPaths.me(contact.id).path
            meField = FormField.hidden("is_me", value: contact.isMe ? "0" : "1")
            deleteURL = ContactPaths.delete(contact.id).path
            deleteOffline = OfflineForm(
                .delete, of: .contact, id: contact.id, summary: "Deleting \(contact.completeName)",
                then: SitePaths.contacts.path)
            listURL = SitePaths.contacts.path
            addresses = aggregate.addresses.map {
                AddressCard($0, preferredApp: preferredApp, tilesEnabled: tilesEnabled)
            }
            newAddressURL = AddressPaths.new(contact.id).path
            newReminderURL = ReminderPaths.new.path(query: [
                ("contact", String(contact.id)), ("return_to", ContactPaths.contact(contact.id).path),
            ])
            vcardURL = ContactPaths.vcard(contact.id).path
            self.fields = ContactFieldsSection(
                contactID: contact.id, fields: contactFields, kinds: fieldKinds, problem: problem)
            self.tags = ContactTagsSection(
                contactID: contact.id, tags: aggregate.tags, allTags: allTags, problem: problem)
            self.notes = ContactNotesSection(contactID: contact.id, notes: notes, problem: problem)
            self.tasks = ContactTasksSection(
                contact: contact, tasks: tasks, problem: problem, csrfToken: session.csrfToken)
            self.calls = ContactCallsSection(contact: contact, calls: calls, today: today, problem: problem)
            relationships = ContactRelationshipsSection(contact: contact, relationships: aggregate.relationships)
            isMoreOpen = problem != nil
            moreSummary = ContactPage.moreSummary(aggregate)
            self.debts = ContactDebtsSection(
                contact: contact, debts: debts, defaultCurrency: defaultCurrency, problem: problem)
            self.gifts = ContactGiftsSection(
                contact: contact, gifts: gifts, defaultCurrency: defaultCurrency, problem: problem)
            self.pets = ContactPetsSection(contact: contact, pets: pets, problem: problem)
            self.conversations = ContactConversationsSection(
                contact: contact, conversations: conversations, kinds: fieldKinds, today: today, problem: problem)
            self.lifeEvents = ContactLifeEventsSection(
                contact: contact, events: lifeEvents, today: today, problem: problem)
            self.reminders = reminders.map { ReminderLine($0, today: today) }
                .sorted { ($0.isOverdue ? 0 : 1, $0.sortDate) < ($1.isOverdue ? 0 : 1, $1.sortDate) }
        }
    }

    /// One reminder on the contact page: what, when next, how often.
    struct ReminderLine: Encodable {
        let title: String
        let when: String
        let repeats: String
        let isOverdue: Bool
        let isDone: Bool
        let sortDate: String
        let actions: ReminderActions

        init(_ reminder: Reminder, today: CalendarDate) {
            let schedule = reminder.fields.schedule
            let next = reminder.nextExpectedDate(today: today)
            title = reminder.fields.title
            when = next.dayMonthYear
            isDone = reminder.doneAt != nil
            isOverdue = next < today && !isDone
            sortDate = next.description
            repeats = schedule.recurrence.words
            actions = ReminderActions(reminder.outline, returnTo: ContactPaths.contact(reminder.contactID).path)
        }
    }

    /// `problem` is a refused small form of the page, shown beside it.
    static func load(_ request: Request, id: Int, problem: FormProblem? = nil) async throws -> Context {
        // The contact first: another account's is not found, and nothing else is read.
        let aggregate = try await request.contacts().aggregate(id)
        // The sections' reads depend on nothing but the id, so they run together: on PostgreSQL each on
        // a connection of its own; on SQLite one waits for the connection while another's rows are made.
        async let reminders = request.reminders().reminders(ofContact: id)
        async let notes = request.notes().newest(ofContact: id, limit: ContactNotesSection.shownOnPage)
        async let tasks = request.tasks().tasks(ofContact: id)
        async let calls = request.calls().page(
            contactID: id, sort: CallService.defaultSort,
            page: PageSelection(page: 1, limit: ContactCallsSection.shownOnPage)
        ).0
        async let debts = request.debts().page(
            contactID: id, sort: DebtService.defaultSort,
            page: PageSelection(page: 1, limit: ContactDebtsSection.shownOnPage)
        ).0
        async let gifts = request.gifts().page(
            contactID: id, sort: GiftService.defaultSort,
            page: PageSelection(page: 1, limit: ContactGiftsSection.shownOnPage)
        ).0
        async let pets = request.pets().page(
            contactID: id, sort: PetService.defaultSort,
            page: PageSelection(page: 1, limit: ContactPetsSection.shownOnPage)
        ).0
        async let lifeEvents = request.lifeEvents().page(
            contactID: id, sort: LifeEventService.defaultSort,
            page: PageSelection(page: 1, limit: ContactLifeEventsSection.shownOnPage)
        ).0
        async let conversations = request.conversations().page(
            contactID: id, sort: ListSort(TimestampSortField.createdAt, descending: true),
            page: PageSelection(page: 1, limit: ContactConversationsSection.shownOnPage)
        ).0
        async let allTags = request.tags().all().map(\.tag)
        // New amounts are offered in the currency the person used last, not always in dollars.
        async let latestCurrency = request.db.latestCurrency(
            in: [GiftsTable.name, DebtsTable.name], ownerID: try request.requireUser().id)
        async let fields = request.contactFields().fields(ofContacts: [id])
        async let kinds = request.contactFields().types()
        async let photos = request.photos().photos(ofContact: id)
        async let occupations = request.occupations().page(
            contactID: id, sort: OccupationService.defaultSort,
            page: PageSelection(page: 1, limit: ContactOccupationsSection.shownOnPage)
        ).0
        async let companyNames = request.companies().names()
        async let documents = request.documents().page(
            contactID: id, sort: ListSort(TimestampSortField.createdAt, descending: true),
            page: PageSelection(page: 1, limit: ContactDocumentsSection.shownOnPage)
        ).0
        let contact = aggregate.contact
        // The first e-mail, which chooses the Gravatar, is among the fields just read (in the order made).
        let (contactFields, fieldKinds) = (try await fields, try await kinds)
        let emailKinds = Set(fieldKinds.filter(\.isEmail).map(\.id))
        let gravatarEmail = try await request.avatars().gravatarEmail(
            contactFields.first { emailKinds.contains($0.typeID) }?.data)
        let pictures = ContactPicturesSection(
            contact: contact, photos: try await photos, gravatarEmail: gravatarEmail,
            maximumBytes: request.application.locifyConfig.maximumPhotoBytes, problem: problem
        ) { request.photoLink($0, base: "") }
        return Context(
            aggregate: aggregate, reminders: try await reminders, notes: try await notes, tasks: try await tasks,
            calls: try await calls, debts: try await debts, gifts: try await gifts, pets: try await pets,
            lifeEvents: try await lifeEvents, conversations: try await conversations,
            allTags: try await allTags,
            defaultCurrency: try await latestCurrency ?? Money.defaultCurrency,
            contactFields: contactFields,
            fieldKinds: fieldKinds,
            today: request.today,
            preferredApp: request.preferredMapsApp, tilesEnabled: request.mapTilesEnabled,
            session: request.pageSession, pictureURL: request.pictureURL(contact), pictures: pictures,
            documents: ContactDocumentsSection(
                contact: contact, documents: try await documents,
                timeZone: try request.requireUser().timeZone,
                maximumBytes: request.application.locifyConfig.maximumPhotoBytes, problem: problem),
            occupations: ContactOccupationsSection(
                contact: contact, occupations: try await occupations, companyNames: try await companyNames,
                problem: problem),
            problem: problem)
    }

    /// The contact page again with a refusal that is no broken rule (a file too large, not an image)
    /// beside its form, answered with `status`; nothing changed.
    static func redraw(
        _ request: Request, _ contactID: Int, _ problem: FormProblem, status: HTTPResponseStatus
    ) async throws -> Response {
        let context = try await load(request, id: contactID, problem: problem)
        return try await request.view.render("contacts/show", context).encodeResponse(status: status, for: request)
    }

    /// What the folded sections hold, as their summary says it: "Tasks, notes, calls and more (3 notes,
    /// 2 calls)".
    static func moreSummary(_ aggregate: ContactAggregate) -> String {
        let counts = aggregate.counts
        let held = [
            (counts.tasks, "task"), (counts.notes, "note"), (counts.calls, "call"),
            (aggregate.relationships.count, "relationship"),
        ].filter { $0.0 > 0 }.map { $0.0 == 1 ? "1 \($0.1)" : "\($0.0) \($0.1)s" }
        let base = "Tasks, relationships, calls, notes, tags and more"
        return held.isEmpty ? base : "\(base) (\(held.joined(separator: ", ")))"
    }

    /// "Engineer at Navy", or whichever of the two is known.
    /// Between a job and its company; the offline app joins a change waiting with it too.
    static let workJoiner = " at "

    static func describeWork(job: String?, company: String?) -> String? {
        switch (job, company) {
        case (let job?, let company?): job + workJoiner + company
        case (let job?, nil): job
        case (nil, let company?): company
        case (nil, nil): nil
        }
    }

    /// "5 June 1833, London, through Mary Somerville": when, where and through whom the owner met the
    /// contact, what of it is known.
    static func describeMeeting(_ introduction: ContactIntroduction, through: Contact?) -> String? {
        var parts: [String] = []
        if let day = introduction.firstMet {
            if day.isAgeBased, let year = day.year {
                parts.append("around \(year)")
            } else {
                parts.append(
                    ["\(day.day) \(CalendarDate.monthNames[day.month - 1])", day.year.map(String.init)]
                        .compactMap { $0 }.joined(separator: " "))
            }
        }
        if let place = introduction.place { parts.append(place) }
        if let through { parts.append("through \(through.completeName)") }
        guard !parts.isEmpty else { return nil }
        let text = parts.joined(separator: ", ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    static func describe(_ birthdate: Birthdate, today: CalendarDate) -> String {
        let monthName = CalendarDate.monthNames[birthdate.month - 1]
        if birthdate.isAgeBased, let age = birthdate.age(on: today) {
            return "About \(age) years old (born around \(birthdate.year ?? 0))"
        }
        let day = "\(birthdate.day) \(monthName)"
        guard let year = birthdate.year, let age = birthdate.age(on: today) else { return day }
        return "\(day) \(year) (\(age) years old)"
    }
}

/// `GET /contacts/{id}/delete`: the confirmation for browsers without the dialog.
enum DeleteContactPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let card: ContactCard
        let deleteURL: String
        let cancelURL: String

        init(contact: Contact, session: PageSession) {
            layout = LayoutContext(title: "Delete \(contact.completeName)?", section: .contacts, session: session)
            card = ContactCard(contact)
            deleteURL = ContactPaths.delete(contact.id).path
            cancelURL = ContactPaths.contact(contact.id).path
        }
    }

    static func load(_ request: Request, id: Int) async throws -> Context {
        Context(contact: try await request.contacts().contact(id), session: request.pageSession)
    }
}
