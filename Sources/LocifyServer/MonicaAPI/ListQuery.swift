import LocifyCore
import Vapor

/// The query parameters of a Monica list route. Unknown parameters are ignored; values that cannot
/// be numbers fall back to the defaults, as Laravel does.
struct ListQuery {
    let page: Int
    let limit: Int
    let sort: String?
    let search: String?

    init(from request: Request) throws {
        let page = (try? request.query.get(String.self, at: "page")).flatMap { Int($0) } ?? 1
        let limit = (try? request.query.get(String.self, at: "limit")).flatMap { Int($0) } ?? PageWindow.defaultLimit
        guard limit <= PageWindow.maximumLimit else { throw AppError.limitTooBig(maximum: PageWindow.maximumLimit) }
        self.page = max(page, 1)
        self.limit = max(limit, 1)
        sort = try? request.query.get(String.self, at: "sort")
        search = (try? request.query.get(String.self, at: "query")).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The URL of page `number` of this list: `limit`, `sort` and `query` are kept (Monica drops them).
    func pageURL(_ number: Int, of list: SiteURL, on request: Request) -> String {
        request.absoluteURL(list, query: [
            ("limit", limit == PageWindow.defaultLimit ? nil : String(limit)), ("sort", sort), ("query", search),
            ("page", String(number)),
        ])
    }
}

extension Request {
    /// The integer id in the path, or a 404 (a non-number cannot name anything).
    func pathID(_ name: String) throws -> Int {
        guard let value = parameters.get(name), let id = Int(value) else { throw AppError.notFound }
        return id
    }
}
