import Foundation
import LocifyCore
import Vapor

/// The typed contexts of the contact pages, each built by one loader from Core values.
enum ContactPages {
    /// A contact as the list and the detail page show it.
    struct Card: Encodable {
        let id: Int
        let name: String
        let nickname: String?
        let email: String?
        let initials: String
        /// One of eight classes (`avatar-color-0`…), one per default colour: the stylesheet holds the
        /// colours, so pages need no inline style and the Content-Security-Policy can forbid it.
        let avatarClass: String
        let isStarred: Bool
        let url: String

        init(_ contact: Contact) {
            id = contact.id
            name = contact.completeName
            nickname = contact.fields.nickname
            email = contact.fields.email
            initials = contact.displayInitials
            avatarClass = "avatar-color-\(Avatar.defaultColors.firstIndex(of: contact.defaultAvatarColor) ?? 0)"
            isStarred = contact.fields.isStarred
            url = SiteURL.contact(contact.id).path
        }
    }

    struct Index: Encodable {
        let layout: LayoutContext
        let contacts: [Card]
        let search: String
        let showingArchived: Bool
        let total: Int
        let hasContacts: Bool
        let summary: String
        let previousURL: String?
        let nextURL: String?
        let pageLabel: String
        let newContactURL: String
        let listURL: String
        let toggleArchivedURL: String
        let toggleArchivedLabel: String

        init(contacts: [Contact], window: PageWindow, search: String, archived: Bool, session: PageSession) {
            func pageURL(_ number: Int?) -> String? {
                number.map {
                    SiteURL.contacts.path(query: [
                        ("q", search), ("archived", archived ? "1" : nil), ("page", String($0)),
                    ])
                }
            }
            let noun = window.total == 1 ? "contact" : "contacts"
            layout = LayoutContext(
                title: archived ? "Archived contacts" : "Contacts", section: .contacts, session: session)
            self.contacts = contacts.map(Card.init)
            self.search = search
            showingArchived = archived
            total = window.total
            hasContacts = !contacts.isEmpty
            summary =
                search.isEmpty
                ? "\(window.total) \(archived ? "archived " : "")\(noun)"
                : "\(window.total) \(noun) matching “\(search)”"
            previousURL = pageURL(window.previousPage)
            nextURL = pageURL(window.nextPage)
            pageLabel = "Page \(min(window.page, window.lastPage)) of \(window.lastPage)"
            newContactURL = SiteURL.newContact.path
            listURL = SiteURL.contacts.path
            toggleArchivedURL = SiteURL.contacts.path(query: [("archived", archived ? nil : "1")])
            toggleArchivedLabel = archived ? "Show current contacts" : "Show archived contacts"
        }
    }

    static let pageSize = 20

    static func index(_ request: Request) async throws -> Index {
        let search = request.query[String.self, at: "q"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let archived = request.query[String.self, at: "archived"] == "1"
        let (contacts, window) = try await request.contacts().page(
            matching: search, order: .listing, page: try request.pageSelection(defaultLimit: pageSize),
            archived: archived)
        return Index(
            contacts: contacts, window: window, search: search, archived: archived, session: request.pageSession)
    }
    struct Detail: Encodable {
        struct Fact: Encodable {
            let label: String
            let value: String
        }

        let layout: LayoutContext
        let card: Card
        let facts: [Fact]
        let description: String?
        let isArchived: Bool
        let editURL: String
        let deleteURL: String
        let listURL: String
    }

    static func detail(_ request: Request, id: Int) async throws -> Detail {
        let contact = try await request.contacts().contact(id)
        let fields = contact.fields
        var facts: [Detail.Fact] = []
        if let nickname = fields.nickname { facts.append(.init(label: "Nickname", value: nickname)) }
        if let email = fields.email { facts.append(.init(label: "Email", value: email)) }
        if let birthdate = fields.birthdate {
            facts.append(.init(label: "Birthday", value: describe(birthdate, today: request.today)))
        }
        if let gender = fields.gender { facts.append(.init(label: "Gender", value: gender.displayName)) }
        facts.append(.init(label: "Added", value: Timestamp.string(contact.createdAt).prefix(10).description))
        return Detail(
            layout: LayoutContext(request: request, title: contact.completeName, section: .contacts),
            card: Card(contact), facts: facts, description: fields.description, isArchived: fields.isArchived,
            editURL: SiteURL.editContact(id).path, deleteURL: SiteURL.deleteContact(id).path,
            listURL: SiteURL.contacts.path)
    }

    static func describe(_ birthdate: Birthdate, today: CalendarDate) -> String {
        let monthName = DateFormatter().monthSymbols[birthdate.month - 1]
        if birthdate.isAgeBased, let age = birthdate.age(on: today) {
            return "About \(age) years old (born around \(birthdate.year ?? 0))"
        }
        let day = "\(birthdate.day) \(monthName)"
        guard let year = birthdate.year, let age = birthdate.age(on: today) else { return day }
        return "\(day) \(year) (\(age) years old)"
    }

    struct Confirm: Encodable {
        let layout: LayoutContext
        let card: Card
        let deleteURL: String
        let cancelURL: String
    }

    static func confirmDelete(_ request: Request, id: Int) async throws -> Confirm {
        let contact = try await request.contacts().contact(id)
        return Confirm(
            layout: LayoutContext(request: request, title: "Delete \(contact.completeName)?", section: .contacts),
            card: Card(contact), deleteURL: SiteURL.deleteContact(id).path, cancelURL: SiteURL.contact(id).path)
    }
}
