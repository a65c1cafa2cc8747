import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// A model-based test of the sync protocol: simulated clients, some offline for a while, make random
/// creates, edits and deletes of contacts, addresses, reminders, places and categories, and push and pull
/// in random order, some answers lost on the way. A model of the documented conflict rule predicts every
/// mutation's status; at the end every client's copy equals the server's, the server equals the model
/// (nothing lost, nothing twice), and replaying a push changes nothing.
final class SyncModelTests: XCTestCase {
    typealias Mutation = SyncPushTests.Mutation

    func testClientsOnlineAndOfflineEndWithTheServersDataAndTheModelPredictsEveryAnswer() async throws {
        try await forEachDatabase { app, _, database in
            var seen: [SyncPushStatus: Int] = [:]
            for seed: UInt64 in [20_261_126, 7] {
                try await run(app, seed: seed, database: database, seen: &seen)
            }
            // The runs met every case of the rule, so the model was held to all of them.
            for status in [SyncPushStatus.applied, .duplicate, .merged, .rejected, .conflict] {
                XCTAssertGreaterThan(seen[status] ?? 0, 2, "\(database): \(status)")
            }
        }
    }

    private func run(_ app: Application, seed: UInt64, database: TestDatabase, seen: inout [SyncPushStatus: Int])
        async throws
    {
        var random = ModelRandom(seed: seed)
        let account = try await app.makeAccount(email: "model-\(seed)@example.com")
        let server = Server(app: app, account: account)
        // The account's first categories, which the model learns as any client does: from the feed.
        _ = try await app.send(.GET, "/api/categories", headers: account.bearer)
        var model = Model(revision: try await server.revision())
        for change in try await server.download().changes where Model.types.contains(change.type) {
            model.records[change.uuid] = try Model.Record(change, parentUUID: nil)
            model.records[change.uuid]?.revision = change.revision
        }
        var clients = (0..<4).map { Client(name: "client-\($0)") }
        var earlierPushes: [(client: String, mutations: [Mutation])] = []
        var answered = 0

        for _ in 0..<260 {
            let index = Int.random(in: 0..<clients.count, using: &random)
            // The last client stays offline for the first half, then catches up.
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 70 || (index == 3 && answered < 25) {
                clients[index].makeChange(using: &random)
                continue
            }
            if roll < 85 {
                let (mutations, answer) = try await server.push(clients[index])
                guard let answer else { continue }
                let predicted = model.apply(client: clients[index].name, mutations)
                let told = zip(mutations, answer.results).map { mutation, result in
                    "\(mutation.op) \(mutation.type): \(result.status) \(result.errors.map(\.message))"
                }
                XCTAssertEqual(answer.results.map(\.status), predicted, "\(database) seed \(seed): \(told)")
                for result in answer.results { seen[result.status, default: 0] += 1 }
                earlierPushes.append((clients[index].name, mutations))
                answered += 1
                // Now and then the answer is lost on the way: the client sends the same mutations again.
                if Int.random(in: 0..<10, using: &random) == 0 { continue }
                clients[index].received(answer, for: mutations)
            } else {
                try await server.pull(into: &clients[index])
            }
        }

        // Everyone comes online: pushes what is left, then pulls.
        for index in clients.indices {
            let (mutations, answer) = try await server.push(clients[index])
            if let answer {
                XCTAssertEqual(answer.results.map(\.status), model.apply(client: clients[index].name, mutations))
                clients[index].received(answer, for: mutations)
            }
        }
        for index in clients.indices { try await server.pull(into: &clients[index]) }

        let download = try await server.download()
        let records = download.changes.filter { Model.types.contains($0.type) }
        XCTAssertEqual(records.count, Set(records.map(\.uuid)).count, "\(database) seed \(seed): no uuid twice")
        let ids = Dictionary(records.map { ("\($0.type)/\($0.id)", $0.uuid) }, uniquingKeysWith: { first, _ in first })
        var onServer: [String: Model.Record] = [:]
        for change in records { onServer[change.uuid] = try Model.Record(change, ids: ids) }
        XCTAssertEqual(onServer, model.records, "\(database) seed \(seed): the server is what the rule says")
        for client in clients {
            XCTAssertEqual(
                client.copy.mapValues(\.revision), records.reduce(into: [:]) { $0[$1.uuid] = $1.revision },
                "\(database) seed \(seed): \(client.name)'s copy is the server's")
            XCTAssertTrue(client.outbox.isEmpty)
        }
        XCTAssertGreaterThan(answered, 15, "\(database) seed \(seed): the run pushed")
        XCTAssertGreaterThan(records.count, 20, "\(database) seed \(seed): the run made records")

        // Replaying any earlier push applies nothing again, and tells its refusals again.
        for (client, mutations) in earlierPushes.shuffled(using: &random).prefix(5) {
            let answer = try await server.send(client: client, mutations)
            XCTAssertEqual(
                answer.results.map(\.status), mutations.map { model.refused[client]?[$0.id] ?? .duplicate },
                "\(database) seed \(seed)")
        }
        let after = try await server.download().changes.filter { Model.types.contains($0.type) }
        XCTAssertEqual(after, records, "\(database) seed \(seed): the replays changed nothing")
    }
}

/// The server through its HTTP API.
private struct Server {
    let app: Application
    let account: TestAccount

    func revision() async throws -> Int {
        try await app.db.plainRows(
            #"SELECT "revision" FROM "users" WHERE "id" = \#(bind: account.id)"#, columns: ["revision"]
        ).first?.requiredInteger(0) ?? 0
    }

    func send(client: String, _ mutations: [SyncPushTests.Mutation]) async throws -> SyncPushAnswerResource {
        let response = try await app.send(
            .POST, "/api/sync", headers: account.bearer, json: try SyncPushTests.body(client: client, mutations))
        XCTAssertEqual(response.status, .ok, response.text)
        return try response.decoded(SyncPushAnswerResource.self)
    }

    /// The client's outbox, pushed; nil when it had nothing to send.
    func push(_ client: Client) async throws -> ([SyncPushTests.Mutation], SyncPushAnswerResource?) {
        guard !client.outbox.isEmpty else { return ([], nil) }
        return (client.outbox, try await send(client: client.name, client.outbox))
    }

    func pull(into client: inout Client) async throws {
        var page: SyncPullResource
        repeat {
            let response = try await app.send(
                .GET, "/api/sync?limit=37&cursor=\(client.cursor)", headers: account.bearer)
            XCTAssertEqual(response.status, .ok, response.text)
            page = try response.decoded(SyncPullResource.self)
            client.apply(page)
        } while page.hasMore
    }

    func download() async throws -> SyncPullResource {
        var client = Client(name: "download")
        var changes: [SyncChangeResource] = []
        var page: SyncPullResource
        repeat {
            let response = try await app.send(
                .GET, "/api/sync?limit=1000&cursor=\(client.cursor)", headers: account.bearer)
            page = try response.decoded(SyncPullResource.self)
            changes += page.changes
            client.cursor = page.cursor
        } while page.hasMore
        return SyncPullResource(changes: changes, deletions: [], cursor: client.cursor, hasMore: false)
    }
}

/// A client that keeps a copy: what the server answered it (by uuid, with the record's revision), the
/// mutations it made since (its outbox) and its pull cursor.
private struct Client {
    struct Kept: Equatable {
        let type: String
        let revision: Int
    }

    let name: String
    var copy: [String: Kept] = [:]
    var outbox: [SyncPushTests.Mutation] = []
    var cursor = ""
    var nextID = 1
    var namesMade = 0

    /// The uuids of `type` this client believes exist: its copy, its creates not yet pushed, less its
    /// deletes not yet pushed.
    func known(_ type: String) -> [String] {
        var uuids = Set(copy.filter { $0.value.type == type }.keys)
        for mutation in outbox where mutation.type == type {
            if mutation.op == "create" { uuids.insert(mutation.uuid) }
            if mutation.op == "delete" { uuids.remove(mutation.uuid) }
        }
        return uuids.sorted()
    }

    mutating func makeChange(using random: inout ModelRandom) {
        func pick(_ type: String) -> String? { known(type).randomElement(using: &random) }
        func add(_ type: String, _ op: String, _ uuid: String, _ fields: [String: Any] = [:]) {
            outbox.append(
                SyncPushTests.Mutation(
                    id: nextID, type: type, op: op, uuid: uuid, baseRevision: copy[uuid]?.revision, fields: fields))
            nextID += 1
        }
        func word() -> String {
            ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald"].randomElement(using: &random)!
        }
        let newUUID = random.uuid()
        switch Int.random(in: 0..<16, using: &random) {
        case 0, 1:
            add("contact", "create", newUUID, ["first_name": word()])
        case 2:
            if let contact = pick("contact") { add("contact", "update", contact, ["nickname": word()]) }
        case 3:
            if let contact = pick("contact") { add("contact", "delete", contact) }
        case 4, 5:
            if let contact = pick("contact") {
                add("address", "create", newUUID, ["contact_uuid": contact, "city": word() + "ville", "country": "DE"])
            }
        case 6:
            if let address = pick("address") { add("address", "update", address, ["city": word() + "burg"]) }
        case 7:
            if let address = pick("address") { add("address", "delete", address) }
        case 8:
            if let contact = pick("contact") {
                add(
                    "reminder", "create", newUUID,
                    [
                        "contact_uuid": contact, "title": word(), "initial_date": "2031-03-14",
                        "frequency_type": "one_time",
                    ])
            }
        case 9:
            if let reminder = pick("reminder") { add("reminder", "update", reminder, ["title": word()]) }
        case 10:
            namesMade += 1
            add("category", "create", newUUID, ["name": "\(name) list \(namesMade)"])
        case 11, 12:
            if let category = pick("category") {
                add(
                    "place", "create", newUUID,
                    [
                        "name": word() + "'s", "latitude": Double.random(in: -60...60, using: &random),
                        "longitude": Double.random(in: -170...170, using: &random), "category_uuid": category,
                    ])
            }
        case 13:
            if let place = pick("place") {
                if Bool.random(using: &random) {
                    add("place", "update", place, ["is_favorite": Bool.random(using: &random)])
                } else {
                    add("place", "delete", place)
                }
            }
        case 15:
            // A change its type's own route refuses: the server must refuse it alone.
            if let contact = pick("contact") {
                add(
                    "reminder", "create", newUUID,
                    ["contact_uuid": contact, "title": word(), "initial_date": "2031-03-14", "frequency_type": "often"])
            }
        default:
            let categories = known("category")
            if categories.count > 1, let category = categories.randomElement(using: &random),
                let other = categories.filter({ $0 != category }).randomElement(using: &random)
            {
                add("category", "delete", category, ["move_to_uuid": other])
            }
        }
    }

    mutating func received(_ answer: SyncPushAnswerResource, for mutations: [SyncPushTests.Mutation]) {
        for (mutation, result) in zip(mutations, answer.results) {
            if let data = result.data, let revision = result.revision {
                copy[mutation.uuid] = Kept(type: data.type, revision: revision)
            } else if [.applied, .merged, .conflict].contains(result.status) {
                copy[mutation.uuid] = nil
            }
        }
        outbox.removeAll()
    }

    mutating func apply(_ page: SyncPullResource) {
        for change in page.changes where Model.types.contains(change.type) {
            copy[change.uuid] = Kept(type: change.type, revision: change.revision)
        }
        for deletion in page.deletions { if let uuid = deletion.uuid { copy[uuid] = nil } }
        cursor = page.cursor
    }
}

/// The conflict rule as the README states it, applied to the mutations in the order they arrive.
private struct Model {
    static let types: Set = ["contact", "address", "reminder", "place", "category"]

    struct Record: Equatable, CustomStringConvertible {
        var type: String
        var fields: [String: String]
        var parent: String?
        var revision = 0

        var description: String { "\(type) \(fields) parent \(parent ?? "-") @\(revision)" }

        init(type: String, fields: [String: String], parent: String?, revision: Int) {
            self.type = type
            self.fields = fields
            self.parent = parent
            self.revision = revision
        }

        /// What the model keeps of a record the server answers; `ids` finds a parent's uuid by its id.
        init(_ change: SyncChangeResource, ids: [String: String] = [:], parentUUID: String? = nil) throws {
            let object =
                try JSONSerialization.jsonObject(with: try JSONEncoder().encode(change.data)) as? [String: Any] ?? [:]
            func text(_ key: String) -> String {
                (object[key] as? String) ?? (object[key] as? Bool).map { "\($0)" } ?? ""
            }
            type = change.type
            revision = change.revision
            switch change.type {
            case "contact":
                fields = ["first_name": text("first_name"), "nickname": text("nickname")]
            case "address":
                fields = ["city": text("city")]
                parent = ids["contact/\((object["contact"] as? [String: Any])?["id"] as? Int ?? 0)"]
            case "reminder":
                fields = ["title": text("title")]
                parent = ids["contact/\(object["contact_id"] as? Int ?? 0)"]
            case "place":
                fields = ["name": text("name"), "is_favorite": text("is_favorite")]
                parent = ids["category/\(object["category_id"] as? Int ?? 0)"]
            default:
                fields = ["name": text("name")]
            }
            if let parentUUID { parent = parentUUID }
        }
    }

    var records: [String: Record] = [:]
    var deleted: Set<String> = []
    var lastApplied: [String: Int] = [:]
    /// What each client's mutations were refused with: a replay hears it again.
    var refused: [String: [Int: SyncPushStatus]] = [:]
    var revision: Int

    /// Applies a push as the server must, and answers each mutation's status.
    mutating func apply(client: String, _ mutations: [SyncPushTests.Mutation]) -> [SyncPushStatus] {
        revision += 1
        var statuses: [SyncPushStatus] = []
        for mutation in mutations {
            if mutation.id <= lastApplied[client] ?? 0 {
                statuses.append(refused[client]?[mutation.id] ?? .duplicate)
                continue
            }
            lastApplied[client] = mutation.id
            let status = carryOut(mutation)
            if status == .rejected || status == .conflict { refused[client, default: [:]][mutation.id] = status }
            statuses.append(status)
        }
        return statuses
    }

    private mutating func carryOut(_ mutation: SyncPushTests.Mutation) -> SyncPushStatus {
        let uuid = mutation.uuid
        let exists = records[uuid]?.type == mutation.type
        if mutation.op == "delete" {
            guard exists else { return deleted.contains(uuid) ? .merged : .rejected }
            if let reference = mutation.fields["move_to_uuid"] as? String, records[reference] == nil {
                return deleted.contains(reference) ? .conflict : .rejected
            }
            if mutation.type == "category" {
                guard records.values.filter({ $0.type == "category" }).count > 1 else { return .rejected }
                let moved = records.filter { $0.value.type == "place" && $0.value.parent == uuid }.keys
                if !moved.isEmpty {
                    guard let target = mutation.fields["move_to_uuid"] as? String, target != uuid else {
                        return .rejected
                    }
                    for place in moved {
                        records[place]?.parent = target
                        records[place]?.revision = revision
                    }
                }
            }
            remove(uuid)
            return .applied
        }
        var parent: String?
        for key in ["contact_uuid", "category_uuid"] {
            guard let reference = mutation.fields[key] as? String else { continue }
            guard records[reference] != nil else { return deleted.contains(reference) ? .conflict : .rejected }
            parent = reference
        }
        var fields = mutation.fields.compactMapValues { value -> String? in
            if let text = value as? String { return text }
            if let flag = value as? Bool { return "\(flag)" }
            return nil
        }
        if fields["frequency_type"] == "often" { return .rejected }
        fields["contact_uuid"] = nil
        fields["category_uuid"] = nil
        fields["country"] = nil
        fields["initial_date"] = nil
        fields["frequency_type"] = nil
        if mutation.op == "create" {
            if exists { return .duplicate }
            if mutation.type == "category",
                records.values.contains(where: { $0.type == "category" && $0.fields["name"] == fields["name"] })
            {
                return .rejected
            }
            let blank: [String: [String: String]] = [
                "contact": ["first_name": "", "nickname": ""], "place": ["name": "", "is_favorite": "false"],
            ]
            fields["latitude"] = nil
            fields["longitude"] = nil
            records[uuid] = Record(
                type: mutation.type, fields: (blank[mutation.type] ?? [:]).merging(fields) { $1 }, parent: parent,
                revision: revision)
            return .applied
        }
        guard exists, var record = records[uuid] else { return deleted.contains(uuid) ? .conflict : .rejected }
        let othersChanged = mutation.baseRevision.map { record.revision > $0 && record.revision != revision } ?? false
        record.fields.merge(fields) { $1 }
        record.revision = revision
        records[uuid] = record
        return othersChanged ? .merged : .applied
    }

    /// Deletes a record with what the database deletes with it: a contact's addresses and reminders.
    private mutating func remove(_ uuid: String) {
        records[uuid] = nil
        deleted.insert(uuid)
        for (child, record) in records where record.parent == uuid && ["address", "reminder"].contains(record.type) {
            remove(child)
        }
    }
}

/// A deterministic generator (xorshift64*), so a failing run can be run again as it was.
private struct ModelRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed | 1
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func uuid() -> String {
        let (high, low) = (next(), next())
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
