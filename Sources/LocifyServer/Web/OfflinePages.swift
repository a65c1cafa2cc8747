import LocifyCore
import Vapor

/// How the records of one synced type show in the web app's pages, so the offline app keeps the pages it
/// saved on a device as current as the records it synced: each feature declares its types'
/// (`extension OfflinePages { static let note = … }`) and `configure` registers them
/// (`app.offlinePages`), so this folder names no feature.
struct OfflinePages: Sendable {
    /// Where a record's change shows besides its own page and its lists.
    enum Reach: Sendable, Equatable {
        /// Nowhere else.
        case itself
        /// The page of its parent record, whose id is at `key` in the record's data (`["contact", "id"]`).
        case parent(type: String, key: [String])
        /// Every page of records of `type` (a renamed tag shows on every contact that has it).
        case everyPage(of: String)
    }

    /// The sync feed's type (`contact`, `address`, …).
    let type: String
    /// The record's own page, `{id}` standing for its id; nil for a type shown only on other pages.
    let recordPage: String?
    /// The record's forms that open offline too (its edit page), `{id}` standing for its id: refreshed and
    /// dropped with its page.
    let forms: [String]
    let reach: Reach
    /// Every page of the account's lists that show records of the type, as they are now (a list of 1,000
    /// contacts is 67 pages).
    let lists: @Sendable (Request) async throws -> [String]

    init(
        type: String, recordPage: String? = nil, forms: [String] = [], reach: Reach = .itself,
        lists: @escaping @Sendable (Request) async throws -> [String] = { _ in [] }
    ) {
        self.type = type
        self.recordPage = recordPage
        self.forms = forms
        self.reach = reach
        self.lists = lists
    }

    /// `path` and its further pages (`?page=2` …) for a list of `total` items, `limit` a page.
    static func pages(of path: some SiteAddress, total: Int, limit: Int, query: [(String, String?)] = []) -> [String] {
        let last = PageWindow(page: 1, limit: limit, total: total).lastPage
        return (1...last).map { page in
            path.path(query: query + [("page", page == 1 ? nil : String(page))])
        }
    }
}

extension Application {
    private struct OfflinePagesKey: StorageKey {
        typealias Value = [OfflinePages]
    }

    /// The types whose pages the offline app keeps (registered in `configure`).
    var offlinePages: [OfflinePages] {
        get { storage[OfflinePagesKey.self] ?? [] }
        set { storage[OfflinePagesKey.self] = newValue }
    }
}
