import LocifyCore
import Vapor

/// The query parameters of a Monica list route: `page`, `limit`, `sort` and `query`. Unknown
/// parameters are ignored; `page` and `limit` are read by the same parser as the web lists.
struct ListQuery<SortField>
where SortField: RawRepresentable & CaseIterable & Equatable & Sendable, SortField.RawValue == String {
    let page: PageSelection
    let sort: ListSort<SortField>
    /// The `sort` text as sent, kept in page links.
    let sortText: String?
    let search: String?

    /// The parameters a list reads: each may come once. The first of several was taken before, so a
    /// client sending `page=2&page=3` got page 2 while asking, by its own reckoning, for something else.
    static var readParameters: [String] { ["page", "limit", "sort", "query", "contact_id"] }

    init(from request: Request, defaultSort: ListSort<SortField>) throws {
        if let query = request.url.query, query.contains("&") {
            let repeated = URLEncodedPairs.repeatedNames(in: query)
            let problems = Self.readParameters.filter(repeated.contains).map {
                FieldError(field: $0, message: "\($0) is given more than once; send it once.")
            }
            guard problems.isEmpty else { throw ValidationFailure(problems) }
        }
        page = try request.pageSelection()
        let parameters = request.queryParameters
        sortText = parameters["sort"]
        sort = try ListSort.parse(sortText, default: defaultSort)
        search = parameters["query"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The URLs of this list's pages: `limit`, `sort` and `query` are kept (Monica drops them), and the
    /// list's own filters named in `filters`. The kept part is encoded once; a pager asks for a dozen
    /// pages, and `page` comes last and is a number.
    func pageURLs(of list: some SiteAddress, on request: Request, keeping filters: [String] = [])
        -> @Sendable (Int) -> String
    {
        let parameters = request.queryParameters
        return request.pageURLs(
            of: list,
            keeping: filters.map { ($0, parameters[$0]) } + [
                ("limit", page.limit == PageWindow.defaultLimit ? nil : String(page.limit)), ("sort", sortText),
                ("query", search),
            ])
    }
}

extension Request {
    /// The URLs of a list's pages, `kept` parameters first: they are encoded once, as a pager asks for a
    /// dozen pages, and `page` comes last and is a number.
    func pageURLs(of list: some SiteAddress, keeping kept: [(String, String?)]) -> @Sendable (Int) -> String {
        let base = absoluteURL(list, query: kept)
        let prefix = base + (base.contains("?") ? "&page=" : "?page=")
        return { prefix + String($0) }
    }
}

extension Request {
    /// `?contact_id=`, which clients send to list one contact's addresses, reminders or photos (Monica
    /// ignores it; Locify filters). A value that is not a number matches nothing the account owns: 404.
    func contactFilter() throws -> Int? {
        try queryParameters["contact_id"].map { text in
            guard let id = LooseValue.integer(text) else { throw AppError.notFound }
            return id
        }
    }

    /// `page` and `limit` from the query string, for the API and the web lists alike.
    func pageSelection(defaultLimit: Int = PageWindow.defaultLimit) throws -> PageSelection {
        let parameters = queryParameters
        return try PageSelection.parse(page: parameters["page"], limit: parameters["limit"], defaultLimit: defaultLimit)
    }
}

extension InvalidListSort: AppFailure {
    var kind: FailureKind { .invalidSort }
    var messages: [String] { ["The sorting criteria is invalid (use \(allowed.joined(separator: ", ")))"] }
}

extension PageSelectionProblem: AppFailure {
    var kind: FailureKind {
        switch self {
        case .invalid: .invalidInput
        case .limitTooBig: .limitTooBig
        }
    }

    var messages: [String] {
        switch self {
        case .invalid(let failure): failure.messages
        case .limitTooBig(let maximum): ["The limit parameter is too big (at most \(maximum))"]
        }
    }
}
