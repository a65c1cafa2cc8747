import Foundation
import GRDB
import LocifyAPI
import LocifyCore

/// The device's copy of one account, in one SQLite file: every record the sync feed brought, as the
/// server sent it, the changes made here waiting to be sent (the outbox), and the refusals the person has
/// not seen yet. Reads never need the network. A write made here goes to the record and to the outbox in
/// one transaction; a pull replaces the server's copy and lays the changes still waiting over it again.
public final class LocifyStore: Sendable {
    let writer: any DatabaseWriter
    private let broadcaster = UpdateBroadcaster()

    /// Opens (or makes) the store at `path`.
    public convenience init(path: String) throws {
        let pool: DatabasePool
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // Records are 0.5–1.5 KB: 8 KB pages hold five where 4 KB ones hold two and waste a quarter.
            // (Taken only by a new file.)
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = 8192") }
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw Self.failure(error)
        }
        try self.init(writer: pool)
    }

    /// A store that lives in memory only (tests, previews).
    public static func inMemory() throws -> LocifyStore {
        do {
            return try LocifyStore(writer: DatabaseQueue())
        } catch let error as LocifyError {
            throw error
        } catch {
            throw Self.failure(error)
        }
    }

    init(writer: any DatabaseWriter) throws {
        self.writer = writer
        do {
            try Self.migrator.migrate(writer)
        } catch {
            throw Self.failure(error)
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // `synced` is the server's copy; `current` what is shown when a change waits (nil: the same
            // as `synced`); `deleted_here` a delete waiting (a row with neither copy is removed, so every
            // other row shows). One copy of each record unless it waits. The JSON comes last in each row: a column after it would be
            // reached only through the JSON's overflow pages. Lists, searches and "near here" read the
            // indexes alone (each holds what its query filters and sorts on), then the few rows they show.
            try db.execute(
                sql: """
                    CREATE TABLE record (
                        type TEXT NOT NULL, uuid TEXT NOT NULL, id INTEGER, revision INTEGER,
                        deleted_here INTEGER NOT NULL DEFAULT 0,
                        stale INTEGER NOT NULL DEFAULT 0,
                        title TEXT, search_key TEXT, sort_key TEXT, parent_id INTEGER, parent_uuid TEXT,
                        latitude REAL, longitude REAL, flag INTEGER NOT NULL DEFAULT 0,
                        synced BLOB, current BLOB,
                        UNIQUE (type, uuid));
                    CREATE INDEX record_by_id ON record (type, id);
                    CREATE INDEX record_listed ON record (type, deleted_here, sort_key, uuid, search_key);
                    CREATE INDEX record_by_parent_id ON record (type, parent_id) WHERE parent_id IS NOT NULL;
                    CREATE INDEX record_by_parent_uuid ON record (type, parent_uuid) WHERE parent_uuid IS NOT NULL;
                    CREATE INDEX record_by_position ON record (type, deleted_here, latitude, longitude, uuid)
                        WHERE latitude IS NOT NULL;
                    CREATE INDEX record_stale ON record (stale) WHERE stale = 1;
                    CREATE TABLE outbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, op TEXT NOT NULL,
                        uuid TEXT NOT NULL, base_revision INTEGER, fields BLOB NOT NULL, made_at REAL NOT NULL);
                    CREATE INDEX outbox_by_record ON outbox (type, uuid);
                    CREATE TABLE refusal (
                        id INTEGER PRIMARY KEY, type TEXT NOT NULL, op TEXT NOT NULL, uuid TEXT NOT NULL,
                        base_revision INTEGER, fields BLOB NOT NULL, status TEXT NOT NULL, errors BLOB NOT NULL,
                        refused_at REAL NOT NULL);
                    CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    """)
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES ('client_id', ?)",
                arguments: [UUID().uuidString.lowercased()])
        }
        migrator.registerMigration("v2-shared-categories") { db in
            // Categories others share with the account, each with its own cursor over its owner's feed, and
            // their records, kept apart from the account's own: they are read here, changed online.
            try db.execute(
                sql: """
                    CREATE TABLE shared_category (
                        id INTEGER PRIMARY KEY NOT NULL, cursor TEXT, sort_key TEXT NOT NULL, data BLOB NOT NULL);
                    CREATE TABLE shared_record (
                        category_id INTEGER NOT NULL, type TEXT NOT NULL, uuid TEXT NOT NULL, id INTEGER,
                        revision INTEGER, sort_key TEXT, parent_id INTEGER, data BLOB NOT NULL,
                        UNIQUE (category_id, type, uuid));
                    CREATE INDEX shared_record_listed ON shared_record (category_id, type, sort_key, uuid);
                    """)
        }
        return migrator
    }

    // MARK: - Settings

    enum Setting: String {
        case clientID = "client_id"
        case cursor
        case serverURL = "server_url"
        case token
        case email
        /// Set while a full download runs: the records it has not brought again yet are `stale`.
        case fullDownload = "full_download"
        case lastSyncedAt = "last_synced_at"
        case countries
        case countriesAt = "countries_at"
    }

    func setting(_ key: Setting) throws -> String? {
        try read { db in try Self.settingValue(key, in: db) }
    }

    func setSetting(_ key: Setting, _ value: String?) throws {
        try write { db in try Self.setSetting(key, value, in: db) }
    }

    private static func setSetting(_ key: Setting, _ value: String?, in db: Database) throws {
        if let value {
            try db.execute(
                sql:
                    "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [key.rawValue, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
        }
    }

    /// This device's name for itself in pushes, made once with the store.
    public func clientID() throws -> String {
        guard let id = try setting(.clientID) else { throw LocifyError.storeFailed("the store has no client id") }
        return id
    }

    /// Where the feed goes on from; nil before the first download finished a page.
    public func cursor() throws -> String? {
        try setting(.cursor)
    }

    // MARK: - The account

    /// The server and token this store syncs with, kept with its data; nil before logging in.
    public func session() throws -> StoredSession? {
        guard let address = try setting(.serverURL), let url = URL(string: address), let token = try setting(.token)
        else { return nil }
        return StoredSession(serverURL: url, token: token, email: try setting(.email))
    }

    /// Keeps the session. Another account's (or server's) copy is removed first, since its records are not
    /// this account's; refused while changes made for the other one still wait to be sent.
    public func keep(_ session: StoredSession) throws {
        try write { db in
            let server = try Self.settingValue(.serverURL, in: db)
            let email = try Self.settingValue(.email, in: db)
            let sameAccount =
                server == session.serverURL.absoluteString && email?.lowercased() == session.email?.lowercased()
            if server != nil, !sameAccount {
                let waiting = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
                if waiting > 0 {
                    throw LocifyError.rejected(
                        status: 409, code: nil,
                        messages: [
                            "This device's copy belongs to \(email ?? "another account") on \(server ?? "another server") and "
                                + "\(waiting) change\(waiting == 1 ? "" : "s") made on it \(waiting == 1 ? "has" : "have") not "
                                + "been sent: log in to that account and sync first, or use another store."
                        ])
                }
                try db.execute(sql: "DELETE FROM record; DELETE FROM refusal")
                for key in [Setting.cursor, .fullDownload, .lastSyncedAt] { try Self.setSetting(key, nil, in: db) }
            }
            try Self.setSetting(.serverURL, session.serverURL.absoluteString, in: db)
            try Self.setSetting(.token, session.token, in: db)
            try Self.setSetting(.email, session.email, in: db)
        }
    }

    /// Forgets the token (the copy stays, readable offline, until another account logs in).
    public func forgetToken() throws {
        try setSetting(.token, nil)
    }

    /// When the last sync ended; nil before the first.
    public func lastSyncedAt() throws -> Date? {
        try setting(.lastSyncedAt).flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:))
    }

    // MARK: - Reads

    /// Contacts by name, or those matching `query` (every word, accents and case ignored, in first and last
    /// name and nickname).
    public func contacts(matching query: String? = nil, limit: Int = 100, offset: Int = 0) throws -> [StoredContact] {
        try search("contact", for: query, limit: limit, offset: offset).map(StoredContact.init)
    }

    public func contact(uuid: String) throws -> StoredContact? {
        try record("contact", uuid: uuid).map(StoredContact.init)
    }

    public func contact(id: Int) throws -> StoredContact? {
        try records("contact", where: "id = ?", arguments: [id], order: "uuid", limit: 1).first.map(StoredContact.init)
    }

    public func addresses(ofContact contact: StoredContact) throws -> [StoredAddress] {
        try children("address", of: contact.state).map(StoredAddress.init)
    }

    public func reminders(ofContact contact: StoredContact) throws -> [StoredReminder] {
        try children("reminder", of: contact.state, order: "sort_key, uuid").map(StoredReminder.init)
    }

    public func reminders(limit: Int = 1000) throws -> [StoredReminder] {
        try records("reminder", order: "sort_key, uuid", limit: limit).map(StoredReminder.init)
    }

    /// Places by name, or those matching `query` (every word, in the name and the address).
    public func places(matching query: String? = nil, limit: Int = 100, offset: Int = 0) throws -> [StoredPlace] {
        try search("place", for: query, limit: limit, offset: offset).map(StoredPlace.init)
    }

    public func place(uuid: String) throws -> StoredPlace? {
        try record("place", uuid: uuid).map(StoredPlace.init)
    }

    /// The places within `radius` metres of `center`, nearest first, each with its `distance`.
    public func places(near center: Coordinate, radius: Double = 50_000, limit: Int = 20) throws -> [StoredPlace] {
        let box = Geo.boundingBox(around: center, radius: radius)
        var condition = "latitude BETWEEN ? AND ?"
        var arguments: [any DatabaseValueConvertible] = [box.minLatitude, box.maxLatitude]
        if box.crossesAntimeridian {
            condition += " AND (longitude >= ? OR longitude <= ?)"
        } else {
            condition += " AND longitude BETWEEN ? AND ?"
        }
        arguments += [box.minLongitude, box.maxLongitude]
        let found = try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT uuid, latitude, longitude FROM record WHERE type = 'place' AND deleted_here = 0 AND \(condition)"
                ),
                arguments: StatementArguments(arguments) ?? [])
        }
        let nearest = found.compactMap { row -> (String, Double)? in
            guard let latitude = row["latitude"] as Double?, let longitude = row["longitude"] as Double? else {
                return nil
            }
            let distance = Geo.distance(center, Coordinate(latitude: latitude, longitude: longitude))
            return distance <= radius ? (row["uuid"], distance) : nil
        }.sorted { $0.1 < $1.1 }.prefix(limit)
        guard !nearest.isEmpty else { return [] }
        let distances = Dictionary(nearest.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        let placeholders = Array(repeating: "?", count: nearest.count).joined(separator: ", ")
        return try records(
            "place", where: "uuid IN (\(placeholders))", arguments: nearest.map(\.0), order: "uuid", limit: limit
        ).map { state, json in
            var place = StoredPlace(state: state, json: json)
            place.distance = distances[state.uuid]
            return place
        }.sorted { ($0.distance ?? 0, $0.state.uuid) < ($1.distance ?? 0, $1.state.uuid) }
    }

    public func categories() throws -> [StoredCategory] {
        try records("category", order: "sort_key, uuid", limit: 10_000).map(StoredCategory.init)
    }

    /// How many records of `type` the device shows.
    public func count(_ type: String) throws -> Int {
        try read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM record WHERE type = ? AND deleted_here = 0",
                arguments: [type]) ?? 0
        }
    }

    /// Every record type the store holds and how many of each, unknown types included.
    public func counts() throws -> [String: Int] {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT type, COUNT(*) AS n FROM record WHERE deleted_here = 0 GROUP BY type")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["type"] as String, $0["n"] as Int) })
        }
    }

    /// The changes made here and not sent yet, oldest first.
    public func waitingChanges(limit: Int = 10_000) throws -> [Mutation] {
        try read { db in try Self.waiting(limit: limit, in: db) }
    }

    private static func waiting(limit: Int, in db: Database) throws -> [Mutation] {
        try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id LIMIT ?", arguments: [limit]).map(mutation)
    }

    public func refusals() throws -> [Refusal] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM refusal ORDER BY id").map { row in
                let errors =
                    (try? JSONDecoder().decode([SyncFieldErrorResource].self, from: row["errors"] as Data)) ?? []
                return Refusal(
                    mutation: Self.mutation(row), status: SyncPushStatus(rawValue: row["status"]) ?? .rejected,
                    errors: errors, refusedAt: Date(timeIntervalSince1970: row["refused_at"]))
            }
        }
    }

    public func dismissRefusal(_ refusal: Refusal) throws {
        try write { db in try db.execute(sql: "DELETE FROM refusal WHERE id = ?", arguments: [refusal.id]) }
    }

    /// The updates of every write from now on: each transaction that changed records sends the types it
    /// touched. Ends when the reader stops iterating.
    public func updates() -> AsyncStream<StoreUpdate> {
        broadcaster.stream()
    }

    /// Records of `type` in name order, or those whose search key holds every word of `query`.
    private func search(_ type: String, for query: String?, limit: Int, offset: Int) throws
        -> [(RecordState, JSONValue)]
    {
        let (condition, arguments) = Self.searchCondition(query)
        return try records(
            type, where: condition, arguments: arguments, order: "sort_key, uuid", limit: limit, offset: offset)
    }

    private static func searchCondition(_ query: String?) -> (String, [any DatabaseValueConvertible]) {
        let words = TextFolding.searchKey([query]).split(separator: " ").map(String.init)
        guard !words.isEmpty else { return ("1", []) }
        let escaped = words.map { word in
            "%"
                + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        return (words.map { _ in "search_key LIKE ? ESCAPE '\\'" }.joined(separator: " AND "), escaped)
    }

    private func record(_ type: String, uuid: String) throws -> (RecordState, JSONValue)? {
        try records(type, where: "uuid = ?", arguments: [uuid.lowercased()], order: "uuid", limit: 1).first
    }

    private func children(_ type: String, of parent: RecordState, order: String = "sort_key, uuid") throws
        -> [(RecordState, JSONValue)]
    {
        if let id = parent.id {
            return try records(
                type, where: "(parent_uuid = ? OR parent_id = ?)", arguments: [parent.uuid, id], order: order,
                limit: 10_000)
        }
        return try records(type, where: "parent_uuid = ?", arguments: [parent.uuid], order: order, limit: 10_000)
    }

    private func records(
        _ type: String, where condition: String = "1", arguments: [any DatabaseValueConvertible] = [],
        order: String, limit: Int, offset: Int = 0
    ) throws -> [(RecordState, JSONValue)] {
        try read { db in
            // The rows first, from the index that holds what they are filtered and ordered by; then the JSON
            // of those alone.
            let found = try Int64.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT rowid FROM record WHERE type = ? AND deleted_here = 0 AND \(condition)
                        ORDER BY \(order) LIMIT ? OFFSET ?
                        """),
                arguments: StatementArguments([type] + arguments + [limit, offset]) ?? [])
            let read = try db.cachedStatement(
                sql: """
                    SELECT id, uuid, revision, COALESCE(current, synced) AS json,
                    EXISTS (SELECT 1 FROM outbox WHERE outbox.type = record.type AND outbox.uuid = record.uuid) AS waiting
                    FROM record WHERE rowid = ?
                    """)
            return try found.compactMap { rowid in
                guard let row = try Row.fetchOne(read, arguments: [rowid]),
                    let json = try? JSONValue(parsing: row["json"] as Data)
                else { return nil }
                let state = RecordState(
                    id: row["id"], uuid: row["uuid"], revision: row["revision"], isWaiting: row["waiting"])
                return (state, json)
            }
        }
    }

    // MARK: - Writes made on this device

    /// Makes a record of `type` here with the fields its create route reads (`first_name`, `latitude`, …;
    /// a parent made here is named by `contact_uuid` or `category_uuid`); answers its uuid.
    @discardableResult
    public func create(_ type: String, fields: [String: JSONValue], uuid: String = UUID().uuidString.lowercased())
        throws -> String
    {
        try enqueue(type: type, operation: .create, uuid: uuid.lowercased(), fields: fields)
        return uuid.lowercased()
    }

    /// Changes the fields named; the others keep their values.
    public func update(_ type: String, uuid: String, fields: [String: JSONValue]) throws {
        try enqueue(type: type, operation: .update, uuid: uuid.lowercased(), fields: fields)
    }

    /// Deletes the record here at once; the server deletes it (and what belongs to it) when this is sent.
    public func delete(_ type: String, uuid: String, fields: [String: JSONValue] = [:]) throws {
        try enqueue(type: type, operation: .delete, uuid: uuid.lowercased(), fields: fields)
    }

    private func enqueue(type: String, operation: Mutation.Operation, uuid: String, fields: [String: JSONValue]) throws
    {
        try write { db in
            let existing = try Row.fetchOne(
                db, sql: "SELECT revision, deleted_here FROM record WHERE type = ? AND uuid = ?",
                arguments: [type, uuid])
            let shown = existing.map { !($0["deleted_here"] as Bool) } ?? false
            switch operation {
            case .create where shown:
                throw LocifyError.rejected(
                    status: 409, code: nil, messages: ["A \(type) with this uuid exists already."])
            case .update, .delete:
                guard shown else { throw LocifyError.notFound("This \(type) is not on this device.") }
            default: break
            }
            try db.execute(
                sql: "INSERT INTO outbox (type, op, uuid, base_revision, fields, made_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    type, operation.rawValue, uuid, existing?["revision"] as Int?, JSONValue.object(fields).data,
                    Date().timeIntervalSince1970,
                ])
            try Self.refresh(type: type, uuid: uuid, in: db)
        }
        broadcaster.send(StoreUpdate(types: [type]))
    }

    /// Lays the changes waiting for one record over the server's copy, and writes what is shown.
    private static func refresh(type: String, uuid: String, in db: Database) throws {
        let row = try Row.fetchOne(
            db, sql: "SELECT synced FROM record WHERE type = ? AND uuid = ?", arguments: [type, uuid])
        let synced = (row?["synced"] as Data?).flatMap { try? JSONValue(parsing: $0) }
        let waiting = try Row.fetchAll(
            db, sql: "SELECT * FROM outbox WHERE type = ? AND uuid = ? ORDER BY id", arguments: [type, uuid]
        ).map(mutation)
        guard !waiting.isEmpty else {
            if let synced {
                try writeShown(type: type, uuid: uuid, current: nil, projected: synced, deletedHere: false, in: db)
            } else if row != nil {
                try db.execute(sql: "DELETE FROM record WHERE type = ? AND uuid = ?", arguments: [type, uuid])
            }
            return
        }
        var shown = synced
        var deleted = false
        for change in waiting {
            shown = LocalEdit.applying(change, to: shown)
            deleted = change.operation == .delete ? true : (change.operation == .create ? false : deleted)
        }
        if row == nil {
            try db.execute(sql: "INSERT INTO record (type, uuid) VALUES (?, ?)", arguments: [type, uuid])
        }
        if let shown, !deleted {
            try writeShown(type: type, uuid: uuid, current: shown, projected: shown, deletedHere: false, in: db)
        } else if synced != nil {
            try writeShown(type: type, uuid: uuid, current: nil, projected: synced, deletedHere: true, in: db)
        } else {
            try db.execute(sql: "DELETE FROM record WHERE type = ? AND uuid = ?", arguments: [type, uuid])
        }
    }

    private static func writeShown(
        type: String, uuid: String, current: JSONValue?, projected: JSONValue?, deletedHere: Bool, in db: Database
    ) throws {
        let projection = projected.map { RecordProjection(type: type, json: $0) }
        try db.cachedStatement(
            sql: """
                UPDATE record SET current = ?, deleted_here = ?, title = ?, search_key = ?, sort_key = ?,
                parent_id = ?, parent_uuid = ?, latitude = ?, longitude = ?, flag = ? WHERE type = ? AND uuid = ?
                """
        ).execute(arguments: [
            current?.data, deletedHere, projection?.title, projection?.searchKey, projection?.sortKey,
            projection?.parentID, projection?.parentUUID, projection?.latitude,
            projection?.longitude, projection?.flag ?? false, type, uuid,
        ])
    }

    private static func mutation(_ row: Row) -> Mutation {
        let fields = (try? JSONValue(parsing: row["fields"] as Data))?.object ?? [:]
        return Mutation(
            id: row["id"], type: row["type"], operation: Mutation.Operation(rawValue: row["op"]) ?? .update,
            uuid: row["uuid"], baseRevision: row["base_revision"], fields: fields)
    }

    /// The countries list last downloaded, and when.
    func keptCountries() throws -> (countries: [CountryResource], at: Date)? {
        guard let text = try setting(.countries), let at = try setting(.countriesAt).flatMap(TimeInterval.init),
            let countries = try? JSONDecoder().decode([CountryResource].self, from: Data(text.utf8))
        else { return nil }
        return (countries, Date(timeIntervalSince1970: at))
    }

    func keepCountries(_ countries: [CountryResource], at date: Date) throws {
        let text = String(decoding: try JSONEncoder().encode(countries), as: UTF8.self)
        try write { db in
            try Self.setSetting(.countries, text, in: db)
            try Self.setSetting(.countriesAt, String(date.timeIntervalSince1970), in: db)
        }
    }

    func noteSynced(at date: Date) throws {
        try setSetting(.lastSyncedAt, String(date.timeIntervalSince1970))
    }

    // MARK: - What the server sent

    /// Starts a download of everything (the first, or after the server forgot the cursor): what it does not
    /// bring again is removed when it ends (`finishFullDownload`), unless a change here waits for it.
    func beginFullDownload() throws {
        try write { db in
            guard try Self.settingValue(.fullDownload, in: db) == nil else { return }
            try db.execute(sql: "UPDATE record SET stale = 1 WHERE synced IS NOT NULL")
            try Self.setSetting(.fullDownload, "1", in: db)
            try Self.setSetting(.cursor, nil, in: db)
        }
    }

    var isDownloadingEverything: Bool {
        get throws { try setting(.fullDownload) != nil }
    }

    func finishFullDownload() throws {
        var types: Set<String> = []
        try write { db in
            let stale = try Row.fetchAll(db, sql: "SELECT type, uuid FROM record WHERE stale = 1")
            for row in stale {
                let type: String = row["type"]
                let uuid: String = row["uuid"]
                try db.execute(
                    sql: "UPDATE record SET synced = NULL, revision = NULL, stale = 0 WHERE type = ? AND uuid = ?",
                    arguments: [type, uuid])
                try Self.refresh(type: type, uuid: uuid, in: db)
                types.insert(type)
            }
            try Self.setSetting(.fullDownload, nil, in: db)
        }
        if !types.isEmpty { broadcaster.send(StoreUpdate(types: types)) }
    }

    private static func settingValue(_ key: Setting, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.rawValue])
    }

    /// Applies one page of the feed and keeps its cursor, in one transaction: a download stopped between
    /// pages goes on from the last page kept.
    func apply(_ page: SyncPage) throws {
        var types: Set<String> = []
        try write { db in
            let waiting = try Set(
                Row.fetchAll(db, sql: "SELECT DISTINCT type, uuid FROM outbox").map {
                    "\($0["type"] as String) \($0["uuid"] as String)"
                })
            for change in page.changes {
                types.insert(change.type)
                try Self.keepServerCopy(
                    type: change.type, uuid: change.uuid, id: change.id, revision: change.revision, data: change.data,
                    hasWaiting: waiting.contains("\(change.type) \(change.uuid)"), in: db)
            }
            for deletion in page.deletions {
                types.insert(deletion.type)
                let uuid: String?
                if let known = deletion.uuid {
                    uuid = known
                } else {
                    uuid = try String.fetchOne(
                        db, sql: "SELECT uuid FROM record WHERE type = ? AND id = ?",
                        arguments: [deletion.type, deletion.id])
                }
                guard let uuid else { continue }
                try db.execute(
                    sql: "UPDATE record SET synced = NULL, revision = ?, stale = 0 WHERE type = ? AND uuid = ?",
                    arguments: [deletion.revision, deletion.type, uuid])
                try Self.refresh(type: deletion.type, uuid: uuid, in: db)
            }
            try Self.setSetting(.cursor, page.cursor, in: db)
        }
        if !types.isEmpty { broadcaster.send(StoreUpdate(types: types)) }
    }

    private static func keepServerCopy(
        type: String, uuid: String, id: Int, revision: Int, data sent: JSONValue, hasWaiting: Bool, in db: Database
    ) throws {
        let data = StoredJSON.kept(sent, type: type)
        // Each upsert leaves alone a copy newer than the one sent (a push's answer came first); the record
        // still came in this download, so it is not stale.
        let newer = "record.synced IS NULL OR record.revision IS NULL OR record.revision <= excluded.revision"
        func keptNewer() throws -> Bool {
            guard db.changesCount == 0 else { return false }
            try db.execute(sql: "UPDATE record SET stale = 0 WHERE type = ? AND uuid = ?", arguments: [type, uuid])
            return true
        }
        guard !hasWaiting else {
            try db.cachedStatement(
                sql: """
                    INSERT INTO record (type, uuid, id, revision, synced) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (type, uuid) DO UPDATE SET id = excluded.id, revision = excluded.revision,
                    synced = excluded.synced, stale = 0 WHERE \(newer)
                    """
            ).execute(arguments: [type, uuid, id, revision, data.data])
            if try keptNewer() { return }
            return try refresh(type: type, uuid: uuid, in: db)
        }
        // What a download does for nearly every record: one statement.
        let projection = RecordProjection(type: type, json: data)
        try db.cachedStatement(
            sql: """
                INSERT INTO record (type, uuid, id, revision, deleted_here, stale, title, search_key, sort_key,
                    parent_id, parent_uuid, latitude, longitude, flag, synced, current)
                VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                ON CONFLICT (type, uuid) DO UPDATE SET id = excluded.id, revision = excluded.revision,
                    deleted_here = 0, stale = 0, title = excluded.title, search_key = excluded.search_key,
                    sort_key = excluded.sort_key, parent_id = excluded.parent_id, parent_uuid = excluded.parent_uuid,
                    latitude = excluded.latitude, longitude = excluded.longitude, flag = excluded.flag,
                    synced = excluded.synced, current = NULL WHERE \(newer)
                """
        ).execute(arguments: [
            type, uuid, id, revision, projection.title, projection.searchKey, projection.sortKey, projection.parentID,
            projection.parentUUID, projection.latitude, projection.longitude,
            projection.flag, data.data,
        ])
        _ = try keptNewer()
    }

    /// The next changes to send, oldest first.
    func nextPush(limit: Int = 500) throws -> SyncPush? {
        try read { db in
            let mutations = try Self.waiting(limit: limit, in: db)
            guard !mutations.isEmpty else { return nil }
            let clientID = try Self.settingValue(.clientID, in: db) ?? ""
            return SyncPush(clientID: clientID, cursor: try Self.settingValue(.cursor, in: db), mutations: mutations)
        }
    }

    /// Takes the server's answer to a push: what it carried out leaves the outbox (its record as the server
    /// has it now kept), what it refused leaves it for the refusals.
    func record(_ answer: SyncPushAnswer, for push: SyncPush) throws {
        var types: Set<String> = []
        try write { db in
            let sent = Dictionary(uniqueKeysWithValues: push.mutations.map { ($0.id, $0) })
            for result in answer.results {
                guard let mutation = sent[result.id] else { continue }
                types.insert(mutation.type)
                try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [mutation.id])
                switch result.status {
                case .applied, .merged, .duplicate:
                    if let data = result.data, let revision = result.revision, let id = data["id"]?.int {
                        try Self.keepServerCopy(
                            type: mutation.type, uuid: mutation.uuid, id: id, revision: revision, data: data,
                            hasWaiting: true, in: db)
                    } else if mutation.operation == .delete {
                        try db.execute(
                            sql: "UPDATE record SET synced = NULL WHERE type = ? AND uuid = ?",
                            arguments: [mutation.type, mutation.uuid])
                    }
                case .rejected, .conflict:
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO refusal (id, type, op, uuid, base_revision, fields, status, errors, refused_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            mutation.id, mutation.type, mutation.operation.rawValue, mutation.uuid,
                            mutation.baseRevision,
                            JSONValue.object(mutation.fields).data, result.status.rawValue,
                            try JSONEncoder().encode(result.errors),
                            Date().timeIntervalSince1970,
                        ])
                }
                try Self.refresh(type: mutation.type, uuid: mutation.uuid, in: db)
            }
        }
        if !types.isEmpty { broadcaster.send(StoreUpdate(types: types)) }
    }

    /// Tells the readers listening that records of `types` changed.
    func announce(_ types: Set<String>) {
        if !types.isEmpty { broadcaster.send(StoreUpdate(types: types)) }
    }

    // MARK: - The database

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch let error as LocifyError {
            throw error
        } catch {
            throw Self.failure(error)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch let error as LocifyError {
            throw error
        } catch {
            throw Self.failure(error)
        }
    }

    static func failure(_ error: any Error) -> LocifyError {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL {
            return .diskFull(error.message ?? "database or disk is full")
        }
        return .storeFailed(String(describing: error))
    }
}

/// Hands each store update to every reader listening.
private final class UpdateBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<StoreUpdate>.Continuation] = [:]

    func stream() -> AsyncStream<StoreUpdate> {
        AsyncStream { continuation in
            let key = UUID()
            lock.withLock { continuations[key] = continuation }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { _ = self.continuations.removeValue(forKey: key) }
            }
        }
    }

    func send(_ update: StoreUpdate) {
        let listeners = lock.withLock { Array(continuations.values) }
        for listener in listeners { listener.yield(update) }
    }
}

/// Where a store syncs, and as whom.
public struct StoredSession: Sendable, Equatable {
    public var serverURL: URL
    public var token: String
    public var email: String?

    public init(serverURL: URL, token: String, email: String?) {
        self.serverURL = serverURL
        self.token = token
        self.email = email
    }
}
