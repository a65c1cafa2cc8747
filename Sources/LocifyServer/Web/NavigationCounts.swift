import LocifyCore
import Vapor

/// The numbers beside navigation entries (what is due today, what is unread), by section. Read once
/// per signed-in page, before the page is drawn, from the counters features register.
struct NavigationCounts: Sendable, Equatable {
    var bySection: [LayoutContext.Section: Int] = [:]

    subscript(section: LayoutContext.Section) -> Int { bySection[section] ?? 0 }
}

/// A number a feature shows beside its navigation entry (registered in `configure`).
struct NavigationCounter: Sendable {
    let section: LayoutContext.Section
    let count: @Sendable (Request) async throws -> Int
}

struct NavigationCountsKey: StorageKey {
    typealias Value = NavigationCounts
}

extension Application {
    private struct NavigationCountersKey: StorageKey {
        typealias Value = [NavigationCounter]
    }

    var navigationCounters: [NavigationCounter] {
        get { storage[NavigationCountersKey.self] ?? [] }
        set { storage[NavigationCountersKey.self] = newValue }
    }
}

struct NavigationCountsMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.auth.has(AuthenticatedUser.self), !request.url.path.hasSuffix(".json") {
            var counts = NavigationCounts()
            for counter in request.application.navigationCounters {
                counts.bySection[counter.section] = try await counter.count(request)
            }
            request.storage[NavigationCountsKey.self] = counts
        }
        return try await next.respond(to: request)
    }
}
