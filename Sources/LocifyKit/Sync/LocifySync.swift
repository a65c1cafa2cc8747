import Foundation
import LocifyAPI
import LocifyCore

/// What one `LocifySync.sync()` did.
public struct SyncReport: Sendable, Equatable {
    /// Changes sent, and of them those the server refused (now in `LocifyStore.refusals()`).
    public var pushed = 0
    public var refused = 0
    /// Records and deletions the feed brought.
    public var pulledChanges = 0
    public var pulledDeletions = 0
    /// Entries of the feed this SDK could not read (left out, the rest kept).
    public var unreadable = 0
    /// The server had forgotten the cursor (away too long, or restored from a backup): everything was
    /// downloaded again.
    public var downloadedEverything = false
    /// Records the feeds of categories shared with the account brought.
    public var pulledSharedChanges = 0
}

/// Keeps a store in step with the server: sends the changes waiting, in the order they were made, then
/// brings the server's changes since the store's cursor. Each page and each push's answer is kept in its
/// own transaction, so a process killed at any point loses nothing and applies nothing twice (the server
/// remembers the last change applied for this client).
public struct LocifySync: Sendable {
    public let client: LocifyClient
    public let store: LocifyStore
    /// Feed entries asked for a page.
    public var pageSize = 1000

    public init(client: LocifyClient, store: LocifyStore) {
        self.client = client
        self.store = store
    }

    /// Push, then pull, then the categories shared with the account.
    @discardableResult
    public func sync(progress: (@Sendable (SyncReport) -> Void)? = nil) async throws -> SyncReport {
        var report = SyncReport()
        try await push(into: &report)
        try await pull(into: &report, progress: progress)
        try await pullShared(into: &report)
        try store.noteSynced(at: Date())
        return report
    }

    /// Brings the categories others share with the account up to date, each from its own cursor over its
    /// owner's feed, and forgets those no longer shared (revoked or left).
    @discardableResult
    public func pullShared() async throws -> SyncReport {
        var report = SyncReport()
        try await pullShared(into: &report)
        return report
    }

    private func pullShared(into report: inout SyncReport) async throws {
        let shared: [SharedCategoryResource]
        do {
            shared = try await client.sharedCategories()
        } catch LocifyError.notFound {
            // A server from before shared categories: none are shared.
            shared = []
        }
        try store.keepSharedCategories(shared)
        for category in shared {
            var cursor = try store.sharedCursor(of: category.id)
            while true {
                let page: SharedPage?
                do {
                    page = try await client.pullShared(categoryID: category.id, cursor: cursor, limit: pageSize)
                } catch LocifyError.rejected(let status, _, _) where [409, 410].contains(status) && cursor != nil {
                    // Its owner's log no longer reaches this cursor: download the category again; the last
                    // page's `present` drops what is gone.
                    cursor = nil
                    continue
                }
                guard let page else {
                    try store.forgetSharedCategory(category.id)
                    break
                }
                try store.applyShared(page, to: category.id)
                report.pulledSharedChanges += page.changes.count
                report.unreadable += page.unreadable
                cursor = page.cursor
                if !page.hasMore { break }
            }
        }
    }

    @discardableResult
    public func push() async throws -> SyncReport {
        var report = SyncReport()
        try await push(into: &report)
        return report
    }

    @discardableResult
    public func pull(progress: (@Sendable (SyncReport) -> Void)? = nil) async throws -> SyncReport {
        var report = SyncReport()
        try await pull(into: &report, progress: progress)
        return report
    }

    private func push(into report: inout SyncReport) async throws {
        while let push = try store.nextPush() {
            let answer = try await client.push(push)
            try store.record(answer, for: push)
            report.pushed += answer.results.count
            report.refused += answer.results.filter { [.rejected, .conflict].contains($0.status) }.count
            // An answer that carried out none of what was sent would send the same again for ever.
            guard !answer.results.isEmpty else {
                throw LocifyError.unexpectedAnswer(
                    "the server answered a push of \(push.mutations.count) changes with none")
            }
        }
    }

    private func pull(into report: inout SyncReport, progress: (@Sendable (SyncReport) -> Void)?) async throws {
        var cursor = try store.cursor()
        if cursor == nil { try store.beginFullDownload() }
        while true {
            let page: SyncPage
            do {
                page = try await client.pull(cursor: cursor, limit: pageSize)
            } catch LocifyError.rejected(let status, _, _) where [409, 410].contains(status) && cursor != nil {
                // The server no longer knows where this copy stands: download everything again.
                try store.beginFullDownload()
                cursor = nil
                report.downloadedEverything = true
                continue
            }
            try store.apply(page)
            report.pulledChanges += page.changes.count
            report.pulledDeletions += page.deletions.count
            report.unreadable += page.unreadable
            progress?(report)
            cursor = page.cursor
            if !page.hasMore { break }
        }
        if try store.isDownloadingEverything { try store.finishFullDownload() }
    }
}

extension LocifySync {
    /// Logs in with an email and password, keeps the session with the store (so the next start needs no
    /// password: `init(resuming:)`), and answers the sync engine for it.
    public static func logIn(
        server: String, email: String, password: String, store: LocifyStore,
        transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> LocifySync {
        let url = try LocifyClient.serverURL(server)
        let client = try await LocifyClient(serverURL: url, transport: transport).logIn(
            email: email, password: password)
        guard let token = client.token else { throw LocifyError.unexpectedAnswer("the log-in answered no token") }
        let user = try await client.me()
        try store.keep(StoredSession(serverURL: url, token: token, email: user.email))
        return LocifySync(client: client, store: store)
    }

    /// The sync engine for the session kept in `store`; nil before anyone logged in with it.
    public init?(resuming store: LocifyStore, transport: any HTTPTransport = URLSessionTransport()) throws {
        guard let session = try store.session(), !session.token.isEmpty else { return nil }
        self.init(
            client: LocifyClient(serverURL: session.serverURL, token: session.token, transport: transport), store: store
        )
    }
}

extension LocifySync {
    /// The countries an address form offers: the server's list, asked for at most once every `maxAge`
    /// (a day: it changes with Locify's versions, not with the account) and kept with the store. Offline,
    /// the list kept, however old; before any, the list this SDK ships (Core's, the server's own source).
    public func countries(maxAge: TimeInterval = 86_400, now: Date = Date()) async throws -> [CountryResource] {
        let kept = try store.keptCountries()
        if let kept, now.timeIntervalSince(kept.at) < maxAge { return kept.countries }
        do {
            let countries = try await client.countries().countries
            try store.keepCountries(countries, at: now)
            return countries
        } catch LocifyError.unreachable {
            return kept?.countries ?? CountryListResource(CountryCatalog.bundled).countries
        }
    }
}
