import LocifyCore
import Vapor

extension OfflinePages {
    /// A contact's page, its edit form and its new reminder form (as its page links to it); the new contact form; the contact lists, current and archived, every page of them; and the pages that
    /// show contacts' names (the map, the reminders, the tasks).
    static let contact = OfflinePages(
        type: SyncedType.contact.name, recordPage: ContactPaths.contact.template("{id}"),
        forms: [
            ContactPaths.edit.template("{id}"), AddressPaths.new.template("{id}"),
            ReminderPaths.new.path + "?contact={id}&return_to=" + ContactPaths.contact.template("{id}"),
        ]
    ) { request in try await contactLists(request) }

    /// Shown on every contact's page (a gender's name, a field kind's label, a tag's).
    static func onEveryContactPage(_ type: String, alsoInLists: Bool = false) -> OfflinePages {
        OfflinePages(type: type, reach: .everyPage(of: SyncedType.contact.name)) { request in
            alsoInLists ? try await contactLists(request) : []
        }
    }

    static func contactLists(_ request: Request) async throws -> [String] {
        let contacts = try request.contacts()
        let one = PageSelection(page: 1, limit: 1)
        let current = try await contacts.page(matching: nil, order: .listing, page: one).1.total
        let archived = try await contacts.page(matching: nil, order: .listing, page: one, archived: true).1.total
        let limit = PageWindow.defaultLimit
        return pages(of: ContactPaths.list, total: current, limit: limit)
            + pages(of: ContactPaths.list, total: archived, limit: limit, query: [("archived", "1")])
            + [ContactPaths.new.path, SitePaths.map.path, SitePaths.reminders.path, SitePaths.tasks.path]
    }

    /// A record shown on its contact's page (an address, a note, a photo…).
    static func onContactPage(
        _ type: String, key: [String] = ["contact", "id"], forms: [String] = [], alsoOn lists: [SitePath] = []
    ) -> OfflinePages {
        let paths = lists.map(\.path)
        return OfflinePages(type: type, forms: forms, reach: .parent(type: SyncedType.contact.name, key: key)) {
            _ in paths
        }
    }
}
