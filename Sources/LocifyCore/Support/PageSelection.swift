/// Which page of a list a client asked for: `page` and `limit` as the web list and the API both
/// read them.
public struct PageSelection: Equatable, Sendable {
    /// Far beyond any real list, and small enough that the row offset cannot overflow.
    public static let maximumPage = 1_000_000_000

    public let page: Int
    public let limit: Int

    /// The rows before this page.
    public var offset: Int { (page - 1) * limit }

    public init(page: Int = 1, limit: Int = PageWindow.defaultLimit) {
        self.page = page
        self.limit = limit
    }

    /// Both parameters are optional; present, each must be a whole number of at least 1, and `limit`
    /// at most `maximumLimit`.
    public static func parse(
        page: String?, limit: String?, defaultLimit: Int = PageWindow.defaultLimit,
        maximumLimit: Int = PageWindow.maximumLimit
    ) throws(PageSelectionProblem) -> PageSelection {
        var problems: [FieldError] = []
        func positive(_ text: String?, field: String, maximum: Int = .max) -> Int? {
            guard let text else { return nil }
            guard let value = LooseValue.integer(text), value >= 1, value <= maximum else {
                let range = maximum == .max ? "of at least 1" : "from 1 to \(maximum)"
                problems.append(FieldError(field: field, message: "\(field) must be a whole number \(range)."))
                return nil
            }
            return value
        }
        let pageNumber = positive(page, field: "page", maximum: maximumPage)
        let limitNumber = positive(limit, field: "limit")
        guard problems.isEmpty else { throw .invalid(ValidationFailure(problems)) }
        if let limitNumber, limitNumber > maximumLimit { throw .limitTooBig(maximum: maximumLimit) }
        return PageSelection(page: pageNumber ?? 1, limit: limitNumber ?? defaultLimit)
    }

    /// The window over `total` items that this request shows.
    public func window(total: Int) -> PageWindow {
        PageWindow(page: page, limit: limit, total: total)
    }

    /// This page of a list held whole (a handful of kinds, a fixed catalogue), and its window.
    public func slice<Item>(_ items: [Item]) -> (items: [Item], window: PageWindow) {
        let start = min(offset, items.count)
        return (Array(items[start..<min(start + limit, items.count)]), window(total: items.count))
    }
}

public enum PageSelectionProblem: Error, Equatable, Sendable {
    case invalid(ValidationFailure)
    case limitTooBig(maximum: Int)
}
