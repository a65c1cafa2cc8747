import FluentKit
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit
import Vapor

/// Carries out a push: every mutation in one transaction that takes one revision, so that a refused
/// mutation changes nothing and never stops the ones after it.
///
/// A push is first carried out as it comes; the first refusal undoes that whole try, and the push runs
/// again with each mutation in a savepoint of its own. Most pushes are refused nothing, and a savepoint
/// costs two round trips to PostgreSQL a mutation (more than half of a push's statements).
///
/// The conflict rule: the fields a mutation names are written over whatever is stored, in the order
/// mutations arrive (field-level last writer wins; the fields it leaves out keep their newer values); a
/// change to a record deleted meanwhile brings nothing back and answers `conflict`; a delete wins over
/// changes before it.
struct SyncPusher {
    let request: Request
    let ownerID: Int

    func apply(_ push: SyncPush, at now: Date) async throws -> SyncPushAnswerResource {
        do {
            return try await apply(push, at: now, isolatingMutations: false)
        } catch is UnisolatedRefusal {
            return try await apply(push, at: now, isolatingMutations: true)
        }
    }

    /// A mutation was refused in a try without savepoints: what it wrote before it was refused cannot
    /// be undone on its own.
    private struct UnisolatedRefusal: Error {}

    private func apply(_ push: SyncPush, at now: Date, isolatingMutations isolating: Bool) async throws
        -> SyncPushAnswerResource
    {
        try await request.db.write(ownedBy: ownerID, at: now) { database in
            guard let revision = WriteRevision.current?.number else {
                throw WriteFailure.unrevisionedWrite(SyncClientsTable.name)
            }
            let clients = TableWriter(SyncClientsTable.self, on: database)
            let thisClient: SQLQueryString =
                #""user_id" = \#(bind: ownerID) AND "client_id" = \#(bind: push.clientID)"#
            let known = try await database.plainRows(
                #"SELECT "last_mutation_id", "refusals" FROM "sync_clients" WHERE \#(thisClient)"#,
                columns: ["last_mutation_id", "refusals"])
            var lastApplied = try known.first?.requiredInteger(0) ?? 0
            let refused = try RecentRefusals(json: known.first?.text(1))
            var newlyRefused: [SyncPushResultResource] = []
            let locations = try await LocationBook(for: push, ownerID: ownerID, on: database)
            var outcomes: [Outcome] = []
            var previousID: Int?
            for mutation in push.mutations {
                defer { previousID = max(previousID ?? 0, mutation.id) }
                if let previousID, mutation.id <= previousID {
                    outcomes.append(
                        Outcome(
                            id: mutation.id, status: .rejected,
                            errors: [
                                SyncFieldErrorResource(
                                    field: "id",
                                    message: "Mutation ids go up within a push, in the order the client made the "
                                        + "changes: \(mutation.id) comes after \(previousID). Nothing of it was done.")
                            ]))
                    continue
                }
                if mutation.id <= lastApplied {
                    // Sent again after a lost answer: what was refused is told again, not called a duplicate.
                    if let refusal = refused.result(of: mutation.id) {
                        outcomes.append(Outcome(id: refusal.id, status: refusal.status, errors: refusal.errors))
                    } else {
                        outcomes.append(try await answer(mutation, .duplicate, locations: locations, on: database))
                    }
                    continue
                }
                let outcome = try await carryOut(
                    mutation, revision: revision, locations: locations, isolated: isolating, on: database)
                if [.rejected, .conflict].contains(outcome.result.status) { newlyRefused.append(outcome.result) }
                outcomes.append(outcome)
                lastApplied = mutation.id
            }
            let refusals = refused.adding(newlyRefused, lastApplied: lastApplied)
            let results = try await withRecords(outcomes, on: database)
            if known.isEmpty {
                try await clients.insert([
                    .owner: ownerID, .clientID: push.clientID, .lastMutationID: lastApplied, .pushes: 1,
                    .firstSeenAt: now, .lastSeenAt: now, .refusals: refusals.json,
                ])
            } else {
                var values: SyncClientsTable.Values = [.lastMutationID: lastApplied, .lastSeenAt: now]
                // Written only when it changed: most pushes refuse nothing and let no old refusal go.
                if refusals.ids != refused.ids { values[.refusals] = refusals.json }
                try await clients.update(values, computing: [.pushes: #""pushes" + 1"#], where: thisClient)
            }
            // Pulling from the client's own cursor brings this push back with all it touched (a deleted
            // contact's addresses, the places a deleted category let go); without one, from just before it.
            return SyncPushAnswerResource(results: results, cursor: (push.cursor ?? .after(revision - 1)).text)
        }
    }

    /// A mutation's result, and the record whose `data` and `revision` it answers once the push is done.
    fileprivate struct Outcome {
        var result: SyncPushResultResource
        var record: (type: SyncedType, id: Int)?

        init(
            id: Int, status: SyncPushStatus, errors: [SyncFieldErrorResource] = [],
            record: (type: SyncedType, id: Int)? = nil
        ) {
            result = SyncPushResultResource(id: id, status: status, errors: errors)
            self.record = record
        }
    }

    /// The results with each record and its revision as they stand once the push is done (read a type at
    /// a time, in the push's transaction; none for a record deleted by then).
    private func withRecords(_ outcomes: [Outcome], on database: any Database) async throws
        -> [SyncPushResultResource]
    {
        var wanted: [String: (type: SyncedType, ids: [Int])] = [:]
        for case (let type, let id)? in outcomes.map(\.record) {
            wanted[type.name, default: (type, [])].ids.append(id)
        }
        var records: [String: [Int: (data: SyncRecord, revision: Int)]] = [:]
        for (name, (type, ids)) in wanted {
            let data = try await type.records(request, ids)
            let rows = try await database.plainRows(
                """
                SELECT "id", "revision" FROM "\(unsafeRaw: type.table)" \
                WHERE \(SQLQueryString.owned(by: ownerID, ids: ids))
                """, columns: ["id", "revision"])
            for row in rows {
                let id = try row.requiredInteger(0)
                if let record = data[id] { records[name, default: [:]][id] = (record, try row.requiredInteger(1)) }
            }
        }
        return outcomes.map { outcome in
            var result = outcome.result
            if let (type, id) = outcome.record, let found = records[type.name]?[id] {
                result.data = found.data
                result.revision = found.revision
            }
            return result
        }
    }

    /// One mutation; `isolated`, in its own savepoint, so that refused it leaves nothing behind.
    private func carryOut(
        _ mutation: SyncPush.Mutation, revision: Int, locations: LocationBook, isolated: Bool,
        on database: any Database
    ) async throws -> Outcome {
        do {
            let outcome =
                isolated
                ? try await database.savepoint {
                    try await perform(mutation, revision: revision, locations: locations, on: database)
                }
                : try await perform(mutation, revision: revision, locations: locations, on: database)
            locations.note(outcome, of: mutation, at: revision)
            return outcome
        } catch {
            guard isolated else { throw UnisolatedRefusal() }
            return try refusal(of: mutation, for: error)
        }
    }

    private func refusal(of mutation: SyncPush.Mutation, for error: any Error) throws -> Outcome {
        switch error {
        case let failure as ValidationFailure:
            return Outcome(
                id: mutation.id, status: .rejected,
                errors: failure.errors.map { SyncFieldErrorResource(field: $0.field, message: $0.message) })
        case let conflict as SyncConflict:
            return Outcome(
                id: mutation.id, status: .conflict,
                errors: [SyncFieldErrorResource(field: nil, message: conflict.message)])
        default:
            let failure = LocifyErrorMiddleware.Failure(error)
            // The server's own trouble (the database went away) fails the whole push: nothing is
            // committed and the client sends it again, instead of hearing its change was refused.
            guard failure.status.code < 500 else { throw error }
            return Outcome(
                id: mutation.id, status: .rejected,
                errors: failure.messages.map { SyncFieldErrorResource(field: nil, message: $0) })
        }
    }

    private func perform(
        _ mutation: SyncPush.Mutation, revision: Int, locations: LocationBook, on database: any Database
    ) async throws -> Outcome {
        let type = mutation.type
        let writes = mutation.writes
        let location = try await locations.location(of: mutation.uuid, by: type.locator, on: database)
        if mutation.operation == .delete {
            guard case .record(let id, _) = location else {
                guard try await isDeleted(type.name, mutation.uuid, on: database) else { throw notFound(type) }
                return Outcome(id: mutation.id, status: .merged)
            }
            try await writes.delete(
                request, id, try await resolved(mutation.fields, of: mutation, locations: locations, on: database))
            return Outcome(id: mutation.id, status: .applied)
        }
        let fields = try await resolved(mutation.fields, of: mutation, locations: locations, on: database)
        switch (mutation.operation, location) {
        case (.create, .record(let id, _)):
            return Outcome(id: mutation.id, status: .duplicate, record: (type, id))
        case (.create, .elsewhere):
            throw ValidationFailure(field: "uuid", "This uuid cannot be used: make a new one.")
        case (.create, .nowhere):
            let unused = UnusedClientUUID(table: type.locator.table, uuid: mutation.uuid)
            let id = try await UnusedClientUUID.$known.withValue(unused) {
                try await writes.create(request, mutation.uuid, try OrderedJSONEncoder().encode(fields))
            }
            return Outcome(id: mutation.id, status: .applied, record: (type, id))
        case (_, .record(let id, let stored)):
            if !fields.isEmpty { try await writes.update(request, id, try OrderedJSONEncoder().encode(fields)) }
            // Changed by others since the client last saw it (not by an earlier mutation of this push).
            let othersChanged = mutation.baseRevision.map { stored > $0 && stored != revision } ?? false
            return Outcome(id: mutation.id, status: othersChanged ? .merged : .applied, record: (type, id))
        case (_, .elsewhere), (_, .nowhere):
            guard try await isDeleted(type.name, mutation.uuid, on: database) else { throw notFound(type) }
            throw SyncConflict(
                message: "This \(type.name) was deleted (on another device, or by another change) before this "
                    + "change arrived: the change was not kept.")
        }
    }

    /// `fields` checked against what the type takes, with each reference by uuid (`contact_uuid`) turned
    /// into the id the type's own route reads (`contact_id`).
    private func resolved(
        _ fields: [String: JSONValue], of mutation: SyncPush.Mutation, locations: LocationBook,
        on database: any Database
    ) async throws -> [String: JSONValue] {
        let writes = mutation.writes
        let unknown = fields.keys.filter { !writes.fields.contains($0) }.sorted()
        guard unknown.isEmpty else {
            let taken = writes.fields.sorted().joined(separator: ", ")
            throw ValidationFailure(
                unknown.map {
                    FieldError(field: $0, message: "A \(mutation.type.name) has no field “\($0)”: it takes \(taken).")
                })
        }
        var result = fields
        for reference in writes.references {
            guard let value = result.removeValue(forKey: reference.field), value != .null else { continue }
            guard result[reference.idField] == nil || result[reference.idField] == .null else {
                throw ValidationFailure(
                    field: reference.field, "Send \(reference.idField) or \(reference.field), not both.")
            }
            guard let uuid = reference.uuid(in: fields) else {
                throw ValidationFailure(
                    field: reference.field, "\(reference.field) must be the uuid of one of your \(reference.type)s.")
            }
            switch try await locations.location(of: uuid, by: reference.locator, on: database) {
            case .record(let id, _):
                result[reference.idField] = .integer(id)
            case .elsewhere, .nowhere:
                guard try await isDeleted(reference.type, uuid, on: database) else {
                    throw ValidationFailure(
                        field: reference.field, "None of your \(reference.type)s has this uuid.",
                        reason: .unknownReference)
                }
                throw SyncConflict(
                    message: "The \(reference.type) this \(mutation.type.name) belongs to was deleted before this "
                        + "change arrived: the change was not kept.")
            }
        }
        return result
    }

    /// The answer `status` about the record `mutation` names, found by its uuid.
    private func answer(
        _ mutation: SyncPush.Mutation, _ status: SyncPushStatus, locations: LocationBook, on database: any Database
    ) async throws -> Outcome {
        guard
            case .record(let id, _) = try await locations.location(
                of: mutation.uuid, by: mutation.type.locator, on: database)
        else {
            return Outcome(id: mutation.id, status: status)
        }
        return Outcome(id: mutation.id, status: status, record: (mutation.type, id))
    }

    private func isDeleted(_ type: String, _ uuid: UUID, on database: any Database) async throws -> Bool {
        try await !database.plainRows(
            """
            SELECT 1 AS "found" FROM "sync_tombstones" \
            WHERE "user_id" = \(bind: ownerID) AND "type" = \(bind: type) AND "uuid" = \(bind: uuid) LIMIT 1
            """, columns: ["found"]
        ).isEmpty
    }

    private func notFound(_ type: SyncedType) -> ValidationFailure {
        ValidationFailure(field: "uuid", "None of your \(type.name)s has this uuid.", reason: .unknownReference)
    }
}

/// Where the uuids of a push lead: found for the whole push in one query a table before its first
/// mutation (instead of a query for each mutation and each reference), and kept up to date as the
/// push makes and changes records. A delete may take other records with it (a contact's addresses, a
/// category's places move), so after one every uuid is looked up again.
private final class LocationBook {
    private let ownerID: Int
    private var known: [String: [UUID: SyncLocation]] = [:]

    init(for push: SyncPush, ownerID: Int, on database: any Database) async throws {
        self.ownerID = ownerID
        var wanted: [String: (locator: SyncLocator, uuids: Set<UUID>)] = [:]
        func want(_ uuid: UUID, by locator: SyncLocator) {
            wanted[locator.table, default: (locator, [])].uuids.insert(uuid)
        }
        for mutation in push.mutations {
            want(mutation.uuid, by: mutation.type.locator)
            for reference in mutation.writes.references {
                if let uuid = reference.uuid(in: mutation.fields) { want(uuid, by: reference.locator) }
            }
        }
        for (table, (locator, uuids)) in wanted {
            known[table] = try await locator.find(uuids, ownedBy: ownerID, on: database)
        }
    }

    func location(of uuid: UUID, by locator: SyncLocator, on database: any Database) async throws -> SyncLocation {
        if let found = known[locator.table]?[uuid] { return found }
        let found = try await locator.find([uuid], ownedBy: ownerID, on: database)[uuid] ?? .nowhere
        known[locator.table, default: [:]][uuid] = found
        return found
    }

    /// What a mutation carried out changed: the record it made or changed has this push's revision.
    func note(_ outcome: SyncPusher.Outcome, of mutation: SyncPush.Mutation, at revision: Int) {
        if mutation.operation == .delete {
            known = [:]
        } else if let (type, id) = outcome.record, outcome.result.status != .duplicate, !mutation.fields.isEmpty {
            known[type.locator.table, default: [:]][mutation.uuid] = .record(id: id, revision: revision)
        }
    }
}

/// A mutation that met a deletion: what it changes, or what it belongs to, is gone.
struct SyncConflict: Error {
    let message: String
}

/// The refusals of a client's recent mutations: a client resends what it has no answer for, at most a
/// push's 500 mutations behind the last one applied, so older ones are let go.
struct RecentRefusals {
    static let kept = 1_000
    private(set) var results: [SyncPushResultResource]

    init(json: String?) throws {
        guard let json, !json.isEmpty else {
            results = []
            return
        }
        results = try JSONDecoder().decode([SyncPushResultResource].self, from: Data(json.utf8))
    }

    func result(of id: Int) -> SyncPushResultResource? {
        results.first { $0.id == id }
    }

    /// The mutations refused, which say whether two sets of refusals differ.
    var ids: [Int] { results.map(\.id) }

    func adding(_ newer: [SyncPushResultResource], lastApplied: Int) -> RecentRefusals {
        var copy = self
        copy.results = (results + newer).filter { $0.id > lastApplied - Self.kept }
        return copy
    }

    var json: String {
        (try? JSONEncoder().encode(results)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
