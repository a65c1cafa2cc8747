/// Which slice of a list a page is, and the numbers Monica's `meta` block shows about it.
public struct PageWindow: Equatable, Sendable {
    public static let defaultLimit = 15
    public static let maximumLimit = 100

    public let page: Int
    public let limit: Int
    public let total: Int

    public init(page: Int, limit: Int, total: Int) {
        self.page = max(page, 1)
        self.limit = max(limit, 1)
        self.total = max(total, 0)
    }

    public var offset: Int { (page - 1) * limit }
    /// At least 1, as Monica reports for an empty list.
    public var lastPage: Int { max(1, (total + limit - 1) / limit) }
    /// 1-based position of the first item on this page; nil on an empty page.
    public var from: Int? { offset < total ? offset + 1 : nil }
    public var to: Int? { offset < total ? min(offset + limit, total) : nil }
    /// The page before, for a person's pager: from beyond the end, the last page.
    public var previousPage: Int? { page > 1 ? min(page - 1, lastPage) : nil }
    /// The page before the one asked for, even beyond the end, as Laravel's paginator (Monica's `links.prev`)
    /// answers: clients that walk back from where they are expect it.
    public var pageBefore: Int? { page > 1 ? page - 1 : nil }
    public var nextPage: Int? { page < lastPage ? page + 1 : nil }
}
