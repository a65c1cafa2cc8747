import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// `GET /api/sync`: what changed and what was deleted after a cursor, for clients that keep a copy;
/// `POST /api/sync`: the changes a client made, applied in one transaction.
struct SyncAPIController: RouteCollection {
    /// Changes and deletions a page when the client names no limit, and the most it may ask for.
    static let defaultLimit = 100
    static let maximumLimit = 1_000

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SyncPaths.api, use: pull)
        routes.post(SyncPaths.api, use: push)
    }

    func push(request: Request) async throws -> SyncPushAnswerResource {
        let push = try SyncPush(
            try request.jsonValueInput(), known: request.application.syncedTypes)
        let answer = try await SyncPusher(request: request, ownerID: try request.requireUser().id)
            .apply(push, at: request.dependencies.now())
        // The services nudged the workers inside the push's transaction, before the jobs they queued (an
        // address to geocode) could be seen; now they can.
        request.application.jobWorkers?.nudge()
        return answer
    }

    func pull(request: Request) async throws -> SyncPullResource {
        let query = try PullQuery(request.queryParameters, known: request.application.syncedTypes)
        let feed = SyncFeed(database: request.db, ownerID: try request.requireUser().id)
        let page = try await Self.page(of: feed, query, on: request)
        // The types are read side by side: a page of a first download is half contacts, half their
        // addresses, and each type's reading and answering can take its own core. They only read; the
        // request's storage is locked, so a value it caches (the base URL) is at worst worked out twice,
        // and a contact that several types show (an address's, a reminder's) is read once.
        request.sharedReads = SharedReads()
        let records = try await withThrowingTaskGroup(of: (String, [Int: SyncRecord]).self) { group in
            for type in query.types {
                let ids = page.changes.filter { $0.type == type.name }.map(\.id)
                if !ids.isEmpty { group.addTask { (type.name, try await type.records(request, ids)) } }
            }
            var byType: [String: [Int: SyncRecord]] = [:]
            for try await (name, found) in group { byType[name] = found }
            return byType
        }
        let changes = page.changeResources(records)
        return SyncPullResource(
            changes: changes,
            deletions: page.deletions.map {
                SyncDeletionResource(type: $0.type, uuid: $0.uuid, id: $0.id, revision: $0.revision)
            }, cursor: page.next.text, hasMore: page.hasMore)
    }

    /// The page of `feed` `query` asks for; a cursor the feed cannot answer from, refused as the API says.
    static func page(of feed: SyncFeed, _ query: PullQuery, on request: Request) async throws -> SyncFeed.Page {
        do {
            return try await feed.page(after: query.cursor, limit: query.limit, types: query.types)
        } catch is SyncFeed.CursorTooOld {
            throw SyncFailure.cursorTooOld(retentionDays: request.application.locifyConfig.syncRetentionDays)
        } catch is SyncFeed.CursorAhead {
            throw SyncFailure.cursorAhead
        }
    }

    /// `cursor`, `limit` and `types` of a pull, each checked.
    struct PullQuery {
        let cursor: SyncCursor
        let limit: Int
        let types: [SyncedType]

        /// Each is read exactly as the OpenAPI document's pattern says, so what the document allows is
        /// answered and nothing else is.
        init(_ parameters: [String: String], known: [SyncedType]) throws {
            var problems: [FieldError] = []
            let text = parameters["cursor"] ?? ""
            if text.isEmpty {
                cursor = .start
            } else if let read = SyncCursor(text: text) {
                cursor = read
            } else {
                cursor = .start
                problems.append(
                    FieldError(
                        field: "cursor",
                        message: "The cursor is not one this server gave: use the last cursor a pull answered, "
                            + "or none to download everything."))
            }
            let maximum = SyncAPIController.maximumLimit
            if let limitText = parameters["limit"] {
                if let number = LooseValue.integer(limitText), (1...maximum).contains(number) {
                    limit = number
                } else {
                    limit = SyncAPIController.defaultLimit
                    problems.append(
                        FieldError(field: "limit", message: "The limit must be a whole number from 1 to \(maximum)."))
                }
            } else {
                limit = SyncAPIController.defaultLimit
            }
            let list = parameters["types"] ?? ""
            let names =
                list.isEmpty ? [] : list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let unknown = names.filter { name in !known.contains { $0.name == name } }
            if !unknown.isEmpty {
                let carried = known.map(\.name).joined(separator: ", ")
                let named = unknown.map { "“\($0)”" }.joined(separator: ", ")
                problems.append(
                    FieldError(
                        field: "types",
                        message: "The feed carries no \(named): types is a comma-separated list of \(carried)."))
            }
            types = names.isEmpty ? known : known.filter { names.contains($0.name) }
            guard problems.isEmpty else { throw ValidationFailure(problems) }
        }
    }
}

/// A pull the feed cannot answer.
enum SyncFailure: AppFailure {
    case cursorTooOld(retentionDays: Int)
    case cursorAhead

    var kind: FailureKind {
        switch self {
        case .cursorTooOld: .gone
        case .cursorAhead: .conflict
        }
    }

    var messages: [String] {
        switch self {
        case .cursorTooOld(let days):
            [
                "This cursor is older than what the server keeps (deletions are kept \(days) days): download "
                    + "everything again by pulling without a cursor."
            ]
        case .cursorAhead:
            [
                "This cursor is ahead of everything this account has here (the data was restored from an "
                    + "older backup, or the cursor is another server's): download everything again by "
                    + "pulling without a cursor."
            ]
        }
    }
}
