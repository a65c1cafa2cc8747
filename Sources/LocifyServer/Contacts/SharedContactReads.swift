import LocifyCore
import NIOConcurrencyHelpers
import Vapor

/// The contacts one answer has read, for the parts of it that need them again. A sync page holds
/// contacts and their addresses side by side, and each address shows its contact, which the page's
/// contacts had just read: on PostgreSQL, 38 of a download's 464 statements read contacts the page
/// already had. A part that asks for contacts whose read is under way waits for it instead of reading
/// them again.
///
/// Kept in an answer's `SharedReads`, which only answers that write nothing have.
final class SharedContactReads: Sendable {
    /// Each contact's id, and the read that brings it (a read of several, shared by all of them).
    private let reads = NIOLockedValueBox([Int: Task<[Int: Contact], any Error>]())

    /// The contacts among `ids` that `read` finds, each read at most once however often it is asked for.
    func contacts(
        _ ids: [Int], read: @escaping @Sendable ([Int]) async throws -> [Int: Contact]
    ) async throws -> [Int: Contact] {
        let wanted = Set(ids)
        let pending = reads.withLockedValue { reads in
            let unread = wanted.filter { reads[$0] == nil }.sorted()
            if !unread.isEmpty {
                let reading = Task { try await read(unread) }
                for id in unread { reads[id] = reading }
            }
            return Set(wanted.compactMap { reads[$0] })
        }
        var found: [Int: Contact] = [:]
        for reading in pending {
            for (id, contact) in try await reading.value where wanted.contains(id) { found[id] = contact }
        }
        return found
    }
}
