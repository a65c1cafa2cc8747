import FluentKit
import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// Everything an account holds as one JSON file, which another Locify server's account imports
/// (Settings → Import and export, `locify export account` / `locify import account`):
///
/// ```json
/// {"format": "locify-account", "version": 1, "exported_at": "…", "account": {"name": …, "email": …},
///  "records": [{"type": "contact", "uuid": "…", "id": 4, "data": {…}, "extra": {…}}, …]}
/// ```
///
/// Each record is its resource exactly as the sync feed carries it (`data`), with what the resource leaves
/// out in `extra` (a document's bytes); the types come in the feed's order, so a record comes after those
/// it names. A photo's bytes are in its resource (`dataUrl`).
enum AccountArchive {
    static let format = "locify-account"
    static let version = 1
    /// Records read and written at a time.
    static let chunkSize = 200

    /// `items` a chunk at a time.
    static func chunks<Item>(of items: [Item]) -> [ArraySlice<Item>] {
        stride(from: 0, to: items.count, by: chunkSize).map { items[$0..<min($0 + chunkSize, items.count)] }
    }

    /// The account's whole archive.
    static func write(_ request: Request, types: [SyncedType]) async throws -> Data {
        let user = try request.requireUser()
        let exportedAt = request.dependencies.now()
        let encoder = OrderedJSONEncoder()
        func json(_ value: JSONValue) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        // Written by hand, so the file opens with what it is; the records follow, a chunk at a time, instead
        // of being held as one JSON value (an account of 10,000 contacts and places is tens of megabytes).
        var archive = Data(
            """
            {"format":\(try json(.string(format))),"version":\(version),\
            "exported_at":\(try json(.string(exportedAt.formatted(.iso8601)))),\
            "account":{"name":\(try json(.string(user.profile.name))),"email":\(try json(.string(user.profile.email)))},\
            "records":[
            """.utf8)
        var first = true
        for type in types {
            let rows = try await request.db.plainRows(
                """
                SELECT "id", "uuid" FROM "\(unsafeRaw: type.table)" WHERE "user_id" = \(bind: user.id) ORDER BY "id"
                """, columns: ["id", "uuid"])
            let entries = try rows.map { (id: try $0.requiredInteger(0), uuid: try $0.requiredUUID(1)) }
            for chunk in chunks(of: entries) {
                let ids = chunk.map(\.id)
                let records = try await type.records(request, ids)
                let extras = try await type.restore.extras?(request, ids) ?? [:]
                for entry in chunk {
                    guard let record = records[entry.id] else { continue }
                    archive.append(contentsOf: Array((first ? "\n" : ",\n").utf8))
                    first = false
                    archive.append(
                        contentsOf: Array(
                            #"{"type":"\#(type.name)","uuid":"\#(entry.uuid.uuidString.lowercased())","id":\#(entry.id),"data":"#
                                .utf8))
                    archive.append(try encoder.encode(record))
                    if let extra = extras[entry.id] {
                        archive.append(contentsOf: Array(#","extra":"#.utf8))
                        archive.append(try encoder.encode(JSONValue.object(extra)))
                    }
                    archive.append(UInt8(ascii: "}"))
                }
            }
        }
        archive.append(contentsOf: Array("\n]}\n".utf8))
        return archive
    }

    /// The file name a download of it is offered under: `locify-account-2026-11-30.json`.
    static func fileName(at date: Date) -> String {
        "locify-account-\(date.formatted(.iso8601.year().month().day())).json"
    }

    /// Reads an archive, checking its shape before anything is written; a file that is not one is
    /// refused with what is wrong.
    static func read(_ data: Data, types: [SyncedType]) throws -> [ArchivedRecord] {
        func refuse(_ message: String) -> ValidationFailure { ValidationFailure(field: "file", message) }
        guard let document = try? JSONValue(parsing: data), let top = document.object else {
            throw refuse("The file is not JSON: choose the account file that Locify's export wrote.")
        }
        guard case .string(format) = top["format"] ?? .null else {
            throw refuse("The file is not a Locify account export (it has no \"format\": \"\(format)\").")
        }
        guard case .integer(let fileVersion) = top["version"] ?? .null, fileVersion <= version else {
            throw refuse(
                "The file was written by a newer Locify (format version \(top["version"].map { "\($0)" } ?? "?")): "
                    + "update this server to import it.")
        }
        guard case .array(let entries) = top["records"] ?? .null else {
            throw refuse("The file has no list of records.")
        }
        let known = Set(types.map(\.name))
        var records: [ArchivedRecord] = []
        records.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            let number = position + 1
            guard let members = entry.object, case .string(let type) = members["type"] ?? .null,
                case .string(let uuidText) = members["uuid"] ?? .null, let uuid = UUID(uuidString: uuidText),
                case .integer(let id) = members["id"] ?? .null, let data = members["data"]?.object
            else {
                throw refuse("Record \(number) of the file is damaged: each has a type, a uuid, an id and its data.")
            }
            guard known.contains(type) else {
                throw refuse("Record \(number) of the file is a “\(type)”, which this server does not know.")
            }
            records.append(
                ArchivedRecord(type: type, uuid: uuid, id: id, data: data, extra: members["extra"]?.object ?? [:]))
        }
        return records
    }
}

/// The times an archived record had, kept when it is made again: when it was made and last changed,
/// and when a task was done or a note became a favourite.
struct ArchivedTimes: Sendable {
    static let keys = ["created_at", "updated_at", "completed_at", "favorited_at"]

    /// By column.
    let dates: [String: Date]

    init(_ record: ArchivedRecord) {
        var dates: [String: Date] = [:]
        for key in Self.keys {
            if let text = record.text(key), let date = try? Date(text, strategy: .iso8601) { dates[key] = date }
        }
        self.dates = dates
    }
}

/// What an import did: how many records of each type were added, found already here, or left out, and
/// why each was left out.
struct ArchiveImportReport: Sendable {
    struct Counts: Sendable, Equatable {
        var added = 0
        /// Already in the account: imported before (the same uuid), or the account's own of the same name.
        var alreadyHere = 0
        var leftOut = 0
    }

    /// By type, in the order they were imported.
    private(set) var counts: [(type: String, counts: Counts)] = []
    private(set) var leftOut: [String] = []

    mutating func count(_ type: String, _ change: (inout Counts) -> Void) {
        if let index = counts.firstIndex(where: { $0.type == type }) {
            change(&counts[index].counts)
        } else {
            var fresh = Counts()
            change(&fresh)
            counts.append((type, fresh))
        }
    }

    mutating func leave(_ record: ArchivedRecord, because reasons: [String]) {
        count(record.type) { $0.leftOut += 1 }
        leftOut.append("\(record.type) “\(record.label)”: \(reasons.joined(separator: " "))")
    }

    var added: Int { counts.reduce(0) { $0 + $1.counts.added } }
    var alreadyHere: Int { counts.reduce(0) { $0 + $1.counts.alreadyHere } }

    var summary: String {
        let records = { (count: Int) in count == 1 ? "1 record" : "\(count.formatted()) records" }
        var parts = ["Added \(records(added))"]
        if alreadyHere > 0 { parts.append("\(records(alreadyHere)) were here already") }
        if !leftOut.isEmpty { parts.append("\(records(leftOut.count)) left out") }
        return parts.joined(separator: "; ") + "."
    }

    /// One line a type: `contact: 12 added, 1 already here`.
    var lines: [String] {
        counts.map { type, counts in
            var parts: [String] = ["\(counts.added) added"]
            if counts.alreadyHere > 0 { parts.append("\(counts.alreadyHere) already here") }
            if counts.leftOut > 0 { parts.append("\(counts.leftOut) left out") }
            return "\(type): " + parts.joined(separator: ", ")
        }
    }
}

/// Makes an archive's records again in the signed-in account, type by type in the feed's order, through
/// each type's own service. Records already here (the same uuid: an import run again after it stopped)
/// are kept as they are; a uuid another account has is given up for a new one. A record refused is left
/// out with the reason, and so is what belongs to it (a left-out contact's notes). A chunk of records is
/// one write, tried whole first and, when something in it is refused, again a record at a time.
struct ArchiveImport {
    let request: Request
    let ownerID: Int
    let types: [SyncedType]

    /// `progress` hears how many of the records are done.
    func run(_ records: [ArchivedRecord], progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws
        -> ArchiveImportReport
    {
        let total = records.count
        var report = ArchiveImportReport()
        var ids = ArchiveIDs()
        var made: [(type: SyncedType, record: ArchivedRecord, id: Int)] = []
        let byType = Dictionary(grouping: records, by: \.type)
        var done = 0
        for type in types {
            guard let records = byType[type.name], !records.isEmpty else { continue }
            let locations = try await type.locator.find(Set(records.map(\.uuid)), ownedBy: ownerID, on: request.db)
            var fresh: [(record: ArchivedRecord, uuid: UUID)] = []
            for record in records {
                switch locations[record.uuid] ?? .nowhere {
                case .record(let id, _):
                    ids.note(type.name, record.id, is: id)
                    report.count(type.name) { $0.alreadyHere += 1 }
                case .elsewhere: fresh.append((record, request.dependencies.newUUID()))
                case .nowhere: fresh.append((record, record.uuid))
                }
            }
            done += records.count - fresh.count
            for slice in AccountArchive.chunks(of: fresh) {
                let chunk = Array(slice)
                let outcome = try await make(chunk, of: type, ids: ids)
                ids.merge(outcome.ids)
                for (record, result) in zip(chunk.map(\.record), outcome.results) {
                    switch result {
                    case .added(let id):
                        made.append((type, record, id))
                        report.count(type.name) { $0.added += 1 }
                    case .found: report.count(type.name) { $0.alreadyHere += 1 }
                    case .refused(let reasons): report.leave(record, because: reasons)
                    }
                }
                done += chunk.count
                progress(done, total)
            }
            progress(done, total)
        }
        try await finish(made, ids: ids, report: &report)
        return report
    }

    private enum Result {
        case added(Int)
        case found(Int)
        case refused([String])
    }

    /// A record was refused in a try of the whole chunk: what it wrote cannot be undone on its own.
    private struct UnisolatedRefusal: Error {}

    private func make(_ chunk: [(record: ArchivedRecord, uuid: UUID)], of type: SyncedType, ids: ArchiveIDs)
        async throws -> (results: [Result], ids: ArchiveIDs)
    {
        do {
            return try await make(chunk, of: type, ids: ids, isolating: false)
        } catch is UnisolatedRefusal {
            return try await make(chunk, of: type, ids: ids, isolating: true)
        }
    }

    private func make(
        _ chunk: [(record: ArchivedRecord, uuid: UUID)], of type: SyncedType, ids known: ArchiveIDs, isolating: Bool
    ) async throws -> (results: [Result], ids: ArchiveIDs) {
        let request = request
        let ownerID = ownerID
        return try await request.db.write(ownedBy: ownerID, at: request.dependencies.now()) { database in
            var ids = known
            var results: [Result] = []
            for (record, uuid) in chunk {
                let attempt: @Sendable (ArchiveIDs) async throws -> Result = { ids in
                    if let existing = try await type.restore.existing?(request, record, ids) {
                        if type.restore.existingComesWithTheImport {
                            try await type.keepTimes(database, ownerID, existing, ArchivedTimes(record))
                        }
                        return .found(existing)
                    }
                    let unused = UnusedClientUUID(table: type.locator.table, uuid: uuid)
                    let id = try await UnusedClientUUID.$known.withValue(unused) {
                        try await type.restore.create(request, record, uuid, ids)
                    }
                    try await type.keepTimes(database, ownerID, id, ArchivedTimes(record))
                    return .added(id)
                }
                let result: Result
                do {
                    let current = ids
                    result =
                        isolating
                        ? try await database.savepoint { try await attempt(current) } : try await attempt(current)
                } catch {
                    guard isolating else { throw UnisolatedRefusal() }
                    results.append(.refused(try Self.reasons(for: error)))
                    continue
                }
                switch result {
                case .added(let id), .found(let id): ids.note(type.name, record.id, is: id)
                case .refused: break
                }
                results.append(result)
            }
            return (results, ids)
        }
    }

    /// What each type sets once every record is in, a chunk a write.
    private func finish(
        _ made: [(type: SyncedType, record: ArchivedRecord, id: Int)], ids: ArchiveIDs,
        report: inout ArchiveImportReport
    ) async throws {
        let pending = made.filter { $0.type.restore.finish != nil }
        let request = request
        for chunk in AccountArchive.chunks(of: pending) {
            let refusals = try await request.db.write(ownedBy: ownerID, at: request.dependencies.now()) { database in
                var refusals: [(ArchivedRecord, [String])] = []
                for (type, record, id) in chunk {
                    guard let finish = type.restore.finish else { continue }
                    do {
                        try await database.savepoint {
                            try await finish(request, record, id, ids)
                            try await type.keepTimes(database, ownerID, id, ArchivedTimes(record))
                        }
                    } catch {
                        refusals.append((record, try Self.reasons(for: error)))
                    }
                }
                return refusals
            }
            for (record, reasons) in refusals {
                report.note(record, partly: reasons)
            }
        }
    }

    /// Why a record was left out, in words; the server's own trouble (the database went away) stops the
    /// import instead.
    private static func reasons(for error: any Error) throws -> [String] {
        switch error {
        case let missing as ArchiveIDs.Missing:
            return ["The \(missing.type) it belongs to was left out."]
        default:
            let failure = LocifyErrorMiddleware.Failure(error)
            guard failure.status.code < 500 else { throw error }
            return failure.messages
        }
    }
}

extension ArchiveImportReport {
    /// A record made whose finishing touches (its avatar, who introduced them) were refused.
    mutating func note(_ record: ArchivedRecord, partly reasons: [String]) {
        leftOut.append(
            "\(record.type) “\(record.label)” was added without some of its details: \(reasons.joined(separator: " "))")
    }
}
