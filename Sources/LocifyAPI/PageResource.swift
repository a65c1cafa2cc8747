import LocifyCore

/// Laravel's paginated list, as Monica answers every list route.
public struct PageResource<Item: Codable & Sendable>: Codable, Sendable {
    public struct Links: Codable, Sendable, Equatable {
        public var first: String
        public var last: String
        @Nullable public var prev: String?
        @Nullable public var next: String?
    }

    public struct Meta: Codable, Sendable, Equatable {
        public var currentPage: Int
        @Nullable public var from: Int?
        public var lastPage: Int
        public var links: [PageLink]
        public var path: String
        public var perPage: Int
        @Nullable public var to: Int?
        public var total: Int
        /// Items per year, on the call and activity lists only (left out elsewhere).
        public var statistics: YearlyCounts?

        enum CodingKeys: String, CodingKey {
            case currentPage = "current_page"
            case from
            case lastPage = "last_page"
            case links, path
            case perPage = "per_page"
            case to, total, statistics
        }
    }

    /// One button of Laravel's pager: previous, each page number, next.
    public struct PageLink: Codable, Sendable, Equatable {
        @Nullable public var url: String?
        public var label: String
        public var active: Bool
    }

    public var data: [Item]
    public var links: Links
    public var meta: Meta

    /// `pageURL(n)` builds the URL of page n with the list's other parameters kept.
    public init(items: [Item], window: PageWindow, path: String, pageURL: (Int) -> String) {
        data = items
        links = Links(
            first: pageURL(1), last: pageURL(window.lastPage),
            prev: window.pageBefore.map(pageURL), next: window.nextPage.map(pageURL))
        var pager = [PageLink(url: window.pageBefore.map(pageURL), label: "&laquo; Previous", active: false)]
        var previousNumber = 0
        for number in Self.visiblePageNumbers(window) {
            if number > previousNumber + 1 { pager.append(PageLink(url: nil, label: "...", active: false)) }
            pager.append(PageLink(url: pageURL(number), label: String(number), active: number == window.page))
            previousNumber = number
        }
        pager.append(PageLink(url: window.nextPage.map(pageURL), label: "Next &raquo;", active: false))
        meta = Meta(
            currentPage: window.page, from: window.from, lastPage: window.lastPage, links: pager, path: path,
            perPage: window.limit, to: window.to, total: window.total)
    }

    /// Like Laravel: the first two, the last two and three either side of the current page.
    static func visiblePageNumbers(_ window: PageWindow) -> [Int] {
        let last = window.lastPage
        let current = min(window.page, last)  // a page past the end still shows a sane pager
        let near = max(1, current - 3)...min(last, current + 3)
        let edges = [1, 2, last - 1, last].filter { (1...last).contains($0) }
        return Array(Set(edges).union(near)).sorted()
    }
}

/// A page writes its pager straight to the output: through `Encodable`, the dozen small objects of
/// `links` and `meta` cost more than the fifteen contacts of a page written directly. Same bytes (a
/// test compares them).
extension PageResource: DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws {
        writer.append(#"{"data":"#)
        try writer.write(data, depth: writer.open.count)
        writer.append(#","links":{"first":"#)
        writer.writeString(links.first)
        writer.append(#","last":"#)
        writer.writeString(links.last)
        writer.append(#","prev":"#)
        writer.writeOptional(links.prev)
        writer.append(#","next":"#)
        writer.writeOptional(links.next)
        writer.append(#"},"meta":{"current_page":"#)
        writer.writeInteger(meta.currentPage)
        writer.append(#","from":"#)
        writer.writeOptional(meta.from)
        writer.append(#","last_page":"#)
        writer.writeInteger(meta.lastPage)
        writer.append(#","links":["#)
        for (index, link) in meta.links.enumerated() {
            writer.append(index == 0 ? #"{"url":"# : #",{"url":"#)
            writer.writeOptional(link.url)
            writer.append(#","label":"#)
            writer.writeString(link.label)
            writer.append(#","active":"#)
            writer.writeBool(link.active)
            writer.append("}")
        }
        writer.append(#"],"path":"#)
        writer.writeString(meta.path)
        writer.append(#","per_page":"#)
        writer.writeInteger(meta.perPage)
        writer.append(#","to":"#)
        writer.writeOptional(meta.to)
        writer.append(#","total":"#)
        writer.writeInteger(meta.total)
        if let statistics = meta.statistics {
            writer.append(#","statistics":"#)
            if statistics.years.isEmpty { writer.append("[]") }
            for (index, year) in statistics.years.enumerated() {
                writer.append(index == 0 ? "{" : ",")
                writer.writeString(year.key)
                writer.append(":")
                writer.writeInteger(year.count)
            }
            if !statistics.years.isEmpty { writer.append("}") }
        }
        writer.append("}}")
    }
}
