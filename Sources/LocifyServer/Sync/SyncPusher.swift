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
            let results = try await withRecords(outcomes, on: database)
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

    /// A mutation's result, and the record whose `data` and `revision` it answers once the push is done.
    private struct Outcome {
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
            return Outcome(id: mutation.id, status: .applied, record: (type, id))
        case (_, .record(let id, let stored)):
            if !fields.isEmpty { try await writes.update(request, id, try JSONEncoder().encode(fields)) }
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

    /// The answer `status` about the record `mutation` names, found by its uuid.
    private func answer(_ mutation: SyncPush.Mutation, _ status: SyncPushStatus, on database: any Database)
        async throws -> Outcome
    {
        guard case .record(let id, _) = try await mutation.type.locate(mutation.uuid, ownerID, database) else {
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

/// A mutation that met a deletion: what it changes, or what it belongs to, is gone.
struct SyncConflict: Error {
    let message: String
}
