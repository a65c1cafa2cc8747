import FluentKit
import Foundation

/// The clients that push to an account, each with the id of the last mutation applied for it: a push
/// that repeats an id (a retry after a lost answer) is answered `duplicate` instead of applied twice, or
/// with the refusal it met the first time.
enum SyncClientsTable: StoredTable {
    static let name = "sync_clients"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// The client's own name for itself (`client_id` of a push).
        case clientID = "client_id"
        case lastMutationID = "last_mutation_id"
        case pushes
        case firstSeenAt = "first_seen_at"
        case lastSeenAt = "last_seen_at"
        /// The results the client's recent mutations were refused with (`rejected`, `conflict`), as JSON.
        case refusals
    }

    static let clientColumns = selection([.clientID, .lastMutationID, .pushes, .firstSeenAt, .lastSeenAt])

    static func client(from row: PlainRow) throws -> SyncStatus.Client {
        SyncStatus.Client(
            clientID: try row.requiredText(0), lastMutationID: try row.requiredInteger(1),
            pushes: try row.requiredInteger(2), firstSeenAt: try row.requiredDate(3),
            lastSeenAt: try row.requiredDate(4))
    }
}
