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

/// Collections of records other accounts share with this one (a shared category of places), each with a
/// feed of its own: the offline app keeps their pages from these feeds as it keeps the account's own pages
/// from the sync feed. Registered in `configure`, so this folder names no feature.
struct OfflineSharedFeeds: Sendable, Encodable {
    /// The collections shared with the account (`{"data": [{"id", "places_count", …}]}`); each one's feed
    /// is at `{list}/{id}/sync`, its last page's `present` the uuids it holds now.
    let list: String
    /// The page that lists the collections shared with the account, beside the account's own.
    let listPage: String
    /// A collection's page, `{id}` standing for its id, listing `pageSize` records a page.
    let collectionPage: String
    let pageSize: Int
    /// The type of the collection's records, and a record's page, `{id}` standing for its id. Records of
    /// other types show on the page of the record whose id is their `parent_key` (a comment's `place_id`).
    let recordType: String
    let recordPage: String
    let parentKey: String

    enum CodingKeys: String, CodingKey {
        case list
        case listPage = "list_page"
        case collectionPage = "collection_page"
        case pageSize = "page_size"
        case recordType = "record_type"
        case recordPage = "record_page"
        case parentKey = "parent_key"
    }
}

extension Application {
    private struct OfflineSharedFeedsKey: StorageKey {
        typealias Value = OfflineSharedFeeds
    }

    /// What others share with an account, for the offline app (registered in `configure`).
    var offlineSharedFeeds: OfflineSharedFeeds? {
        get { storage[OfflineSharedFeedsKey.self] }
        set { storage[OfflineSharedFeedsKey.self] = newValue }
    }
}
