import FluentKit
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit
import Vapor

/// Carries out a push: every mutation in one transaction that takes one revision, each in a savepoint
/// of its own, so a refused mutation changes nothing and never stops the ones after it.
///
/// The conflict rule: the fields a mutation names are written over whatever is stored, in the order
/// mutations arrive (field-level last writer wins; the fields it leaves out keep their newer values); a
/// change to a record deleted meanwhile brings nothing back and answers `conflict`; a delete wins over
/// changes before it.
struct SyncPusher {
    let request: Request
    let ownerID: Int

    func apply(_ push: SyncPush, at now: Date) async throws -> SyncPushAnswerResource {
        try await request.db.write(ownedBy: ownerID, at: now) { database in
            guard let revision = WriteRevision.current?.number else {
                throw WriteFailure.unrevisionedWrite(SyncClientsTable.name)
            }
            let clients = TableWriter(SyncClientsTable.self, on: database)
            let thisClient: SQLQueryString =
                #""user_id" = \#(bind: ownerID) AND "client_id" = \#(bind: push.clientID)"#
            let known = try await database.plainRows(
                #"SELECT "last_mutation_id" FROM "sync_clients" WHERE \#(thisClient)"#, columns: ["last_mutation_id"])
            var lastApplied = try known.first?.requiredInteger(0) ?? 0
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
                    outcomes.append(try await answer(mutation, .duplicate, on: database))
                    continue
                }
                outcomes.append(try await carryOut(mutation, revision: revision, on: database))
                lastApplied = mutation.id
            }
            let results = try await withRecords(outcomes, revision: revision)
            if known.isEmpty {
                try await clients.insert([
                    .owner: ownerID, .clientID: push.clientID, .lastMutationID: lastApplied, .pushes: 1,
                    .firstSeenAt: now, .lastSeenAt: now,
                ])
            } else {
                try await clients.update(
                    [.lastMutationID: lastApplied, .lastSeenAt: now], computing: [.pushes: #""pushes" + 1"#],
                    where: thisClient)
            }
            // Pulling from the client's own cursor brings this push back with all it touched (a deleted
            // contact's addresses, the places a deleted category let go); without one, from just before it.
            return SyncPushAnswerResource(results: results, cursor: (push.cursor ?? .after(revision - 1)).text)
        }
    }

    /// A mutation's result, and the record whose `data` it answers once the push is done.
    private struct Outcome {
        var result: SyncPushResultResource
        var record: (type: SyncedType, id: Int)?

        init(
            id: Int, status: SyncPushStatus, errors: [SyncFieldErrorResource] = [],
            record: (type: SyncedType, id: Int)? = nil, revision: Int? = nil
        ) {
            result = SyncPushResultResource(id: id, status: status, errors: errors, revision: revision)
            self.record = record
        }
    }

    /// The results with each record as it stands once the push is done (read a type at a time, in the
    /// push's transaction; none for a record deleted by then).
    private func withRecords(_ outcomes: [Outcome], revision: Int) async throws -> [SyncPushResultResource] {
        var wanted: [String: (type: SyncedType, ids: [Int])] = [:]
        for case (let type, let id)? in outcomes.map(\.record) {
            wanted[type.name, default: (type, [])].ids.append(id)
        }
        var records: [String: [Int: SyncRecord]] = [:]
        for (name, (type, ids)) in wanted { records[name] = try await type.records(request, ids) }
        // A record a later mutation of the push changed has the push's revision.
        let changed = Set(
            outcomes.compactMap { outcome in
                outcome.result.revision == revision ? outcome.record.map { "\($0.type.name)/\($0.id)" } : nil
            })
        return outcomes.map { outcome in
            var result = outcome.result
            guard let (type, id) = outcome.record, let data = records[type.name]?[id] else {
                result.data = nil
                result.revision = nil
                return result
            }
            result.data = data
            if changed.contains("\(type.name)/\(id)") { result.revision = revision }
            return result
        }
    }

    /// One mutation, in its own savepoint: refused, it leaves nothing behind.
    private func carryOut(_ mutation: SyncPush.Mutation, revision: Int, on database: any Database) async throws
        -> Outcome
    {
        do {
            return try await database.savepoint { try await perform(mutation, revision: revision, on: database) }
        } catch let failure as ValidationFailure {
            return Outcome(
                id: mutation.id, status: .rejected,
                errors: failure.errors.map { SyncFieldErrorResource(field: $0.field, message: $0.message) })
        } catch let conflict as SyncConflict {
            return Outcome(
                id: mutation.id, status: .conflict,
                errors: [SyncFieldErrorResource(field: nil, message: conflict.message)])
        } catch {
            let failure = LocifyErrorMiddleware.Failure(error)
            // The server's own trouble (the database went away) fails the whole push: nothing is
            // committed and the client sends it again, instead of hearing its change was refused.
            guard failure.status.code < 500 else { throw error }
            return Outcome(
                id: mutation.id, status: .rejected,
                errors: failure.messages.map { SyncFieldErrorResource(field: nil, message: $0) })
        }
    }

    private func perform(_ mutation: SyncPush.Mutation, revision: Int, on database: any Database) async throws
        -> Outcome
    {
        let type = mutation.type
        let writes = mutation.writes
        let location = try await type.locate(mutation.uuid, ownerID, database)
        if mutation.operation == .delete {
            guard case .record(let id, _) = location else {
                guard try await isDeleted(type.name, mutation.uuid, on: database) else { throw notFound(type) }
                return Outcome(id: mutation.id, status: .merged)
            }
            try await writes.delete(request, id, try await resolved(mutation.fields, of: mutation, on: database))
            return Outcome(id: mutation.id, status: .applied)
        }
        let fields = try await resolved(mutation.fields, of: mutation, on: database)
        switch (mutation.operation, location) {
        case (.create, .record):
            return try await answer(mutation, .duplicate, on: database)
        case (.create, .elsewhere):
            throw ValidationFailure(field: "uuid", "This uuid cannot be used: make a new one.")
        case (.create, .nowhere):
            let id = try await writes.create(request, mutation.uuid, try JSONEncoder().encode(fields))
            return try await answer(mutation, .applied, id: id, revision: revision, on: database)
        case (_, .record(let id, let stored)):
            if !fields.isEmpty { try await writes.update(request, id, try JSONEncoder().encode(fields)) }
            // Changed by others since the client last saw it (not by an earlier mutation of this push).
            let othersChanged = mutation.baseRevision.map { stored > $0 && stored != revision } ?? false
            return try await answer(
                mutation, othersChanged ? .merged : .applied, id: id, revision: fields.isEmpty ? stored : revision,
                on: database)
        case (_, .elsewhere), (_, .nowhere):
            guard try await isDeleted(type.name, mutation.uuid, on: database) else { throw notFound(type) }
            throw SyncConflict(
                message: "This \(type.name) was deleted (on another device, or by another change) before this "
                    + "change arrived: the change was not kept.")
        }
    }

    /// `fields` checked against what the type takes, with each reference by uuid (`contact_uuid`) turned
    /// into the id the type's own route reads (`contact_id`).
    private func resolved(_ fields: [String: JSONValue], of mutation: SyncPush.Mutation, on database: any Database)
        async throws -> [String: JSONValue]
    {
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
            guard case .string(let text) = value, let uuid = UUID(uuidString: text) else {
                throw ValidationFailure(
                    field: reference.field, "\(reference.field) must be the uuid of one of your \(reference.type)s.")
            }
            switch try await reference.locate(uuid, ownerID, database) {
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

    /// The answer `status` about the record `mutation` names (found by its uuid unless `knownID` is given).
    private func answer(
        _ mutation: SyncPush.Mutation, _ status: SyncPushStatus, id knownID: Int? = nil,
        revision knownRevision: Int? = nil, on database: any Database
    ) async throws -> Outcome {
        var id = knownID
        var revision = knownRevision
        if id == nil,
            case .record(let found, let stored) = try await mutation.type.locate(mutation.uuid, ownerID, database)
        {
            id = found
            revision = stored
        }
        return Outcome(id: mutation.id, status: status, record: id.map { (mutation.type, $0) }, revision: revision)
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

/// A mutation that met a deletion: what it changes, or what it belongs to, is gone.
struct SyncConflict: Error {
    let message: String
}

extension Database {
    /// Runs `body` in a savepoint of the open transaction: when it throws, what it wrote is undone and
    /// the transaction goes on (PostgreSQL would otherwise refuse every statement after a failed one).
    func savepoint<Result>(_ body: () async throws -> Result) async throws -> Result {
        let sql = try sqlDatabase()
        try await sql.raw("SAVEPOINT sync_mutation").run()
        do {
            let result = try await body()
            try await sql.raw("RELEASE SAVEPOINT sync_mutation").run()
            return result
        } catch {
            try await sql.raw("ROLLBACK TO SAVEPOINT sync_mutation").run()
            try await sql.raw("RELEASE SAVEPOINT sync_mutation").run()
            throw error
        }
    }
}
