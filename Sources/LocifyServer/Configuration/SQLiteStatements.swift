import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteNIO
import Vapor
import VaporCSQLite

/// Runs the plain queries (see `PlainRow`) on SQLite with statements prepared once per connection and
/// kept. SQLiteNIO prepares every query anew and finalizes it after: for the contacts list, whose one
/// statement carries eight subqueries, preparing was a tenth of the server's CPU and took longer than
/// running the query. SQLiteNIO keeps its `sqlite3` handle and thread pool to itself, so they are read
/// by reflection; when that fails (a new SQLiteNIO that names them otherwise), queries go through
/// SQLiteNIO as before, and `testPlainQueriesReuseTheirStatementsOnSQLite` fails.
enum SQLiteStatements {
    /// The statements of every open connection, by the connection's `sqlite3` handle.
    private static let kept = NIOLockedValueBox([UInt: KeptStatements]())

    /// How many statements one connection keeps: the least recently used one goes when another comes.
    /// Statements whose text names one row (a contact's id as a literal) come and go; a person's lists,
    /// searches and checks stay.
    static let perConnection = 128

    /// The rows of `sql` with `binds`, read on `connection`'s database thread; nil when the connection
    /// cannot be reached (then the caller runs the query through SQLiteNIO).
    static func rows(_ sql: String, _ binds: [SQLiteData], on connection: SQLiteConnection) async throws
        -> [[SQLiteData]]?
    {
        guard let access = Access(connection) else { return nil }
        return try await access.threadPool.runIfActive {
            try run(sql, binds, on: access.handle)
        }
    }

    /// Finalizes the statements kept for `connection`. A connection cannot close while statements of
    /// its own are open (`sqlite3_close` refuses and leaves it open), so this runs before the databases
    /// shut down; see `KeptStatementsLifecycle`.
    static func finalizeAll(on connection: SQLiteConnection) async throws {
        guard let access = Access(connection) else { return }
        let statements = kept.withLockedValue { $0.removeValue(forKey: UInt(bitPattern: access.handle)) }
        guard let statements else { return }
        try await access.threadPool.runIfActive { statements.finalizeAll() }
    }

    /// How many statements are kept for `connection`, and how many times one was reused: for tests.
    static func counts(on connection: SQLiteConnection) -> (kept: Int, reused: Int)? {
        guard let access = Access(connection) else { return nil }
        return kept.withLockedValue {
            guard let statements = $0[UInt(bitPattern: access.handle)] else { return (0, 0) }
            return (statements.count, statements.reuses)
        }
    }

    private static func run(_ sql: String, _ binds: [SQLiteData], on handle: OpaquePointer) throws -> [[SQLiteData]] {
        let key = UInt(bitPattern: handle)
        let cached = kept.withLockedValue { $0[key, default: KeptStatements()].take(sql) }
        let statement: OpaquePointer
        if let cached {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let status = sqlite_nio_sqlite3_prepare_v3(
                handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard status == SQLITE_OK, let prepared else {
                throw StatementError(status: status, message: message(of: handle), sql: sql)
            }
            statement = prepared
        }
        // A statement goes back to the connection's keeping only reset, which also clears a failed
        // step: one left mid-way would hold the snapshot it read (and, after a write, the write lock).
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            let evicted = kept.withLockedValue { $0[key, default: KeptStatements()].give(statement, for: sql) }
            if let evicted { sqlite_nio_sqlite3_finalize(evicted) }
        }
        // The connection is opened serialized (SQLiteNIO asks for it), so every step and every column read
        // takes the connection's mutex: taken here once for the whole statement, the hundreds of reads of
        // a page of contacts only count up the mutex they already hold (a thirtieth of a list's time went
        // into locking when measured).
        let mutex = sqlite_nio_sqlite3_db_mutex(handle)
        sqlite_nio_sqlite3_mutex_enter(mutex)
        defer { sqlite_nio_sqlite3_mutex_leave(mutex) }
        try bind(binds, to: statement, handle: handle, sql: sql)
        return try readRows(of: statement, handle: handle, sql: sql)
    }

    private static func bind(_ binds: [SQLiteData], to statement: OpaquePointer, handle: OpaquePointer, sql: String)
        throws
    {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .blob(let buffer):
                status = buffer.withUnsafeReadableBytes {
                    sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient)
                }
            case .float(let number):
                status = sqlite_nio_sqlite3_bind_double(statement, index, number)
            case .integer(let number):
                status = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
            case .null:
                status = sqlite_nio_sqlite3_bind_null(statement, index)
            case .text(let text):
                status = sqlite_nio_sqlite3_bind_text64(
                    statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
            }
            guard status == SQLITE_OK else {
                throw StatementError(status: status, message: message(of: handle), sql: sql)
            }
        }
    }

    private static func readRows(of statement: OpaquePointer, handle: OpaquePointer, sql: String) throws
        -> [[SQLiteData]]
    {
        let columnCount = sqlite_nio_sqlite3_column_count(statement)
        var rows: [[SQLiteData]] = []
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else {
                throw StatementError(status: status, message: message(of: handle), sql: sql)
            }
            var row: [SQLiteData] = []
            row.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                row.append(value(of: statement, at: column))
            }
            rows.append(row)
        }
    }

    /// One column of the current row, read as SQLiteNIO reads it.
    private static func value(of statement: OpaquePointer, at column: Int32) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .null }
            return .text(String(cString: text))
        case SQLITE_BLOB:
            let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: length)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: length))
            }
            return .blob(buffer)
        default:
            return .null
        }
    }

    private static func message(of handle: OpaquePointer) -> String {
        sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown error"
    }

    /// SQLite copies a bound value before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A failed prepare, bind or step, with SQLite's own message.
    struct StatementError: Error, CustomStringConvertible {
        let status: Int32
        let message: String
        let sql: String
        var description: String { "SQLite error \(status): \(message) (in \(sql))" }
    }

    /// A connection's `sqlite3` handle and the thread pool SQLiteNIO runs its calls on. The handle is
    /// used only on that pool, by whoever holds the connection (SQLite opens it serialized anyway).
    private struct Access: @unchecked Sendable {
        let handle: OpaquePointer
        let threadPool: NIOThreadPool

        /// Read by reflection once per connection, not on every query: connections live as long as the
        /// server, and a `Mirror` costs allocations.
        init?(_ connection: SQLiteConnection) {
            guard !connection.isClosed else { return nil }
            let key = ObjectIdentifier(connection)
            // The connection itself is checked too: a new one may come at a closed one's address.
            if let known = Self.known.withLockedValue({ $0[key] }), known.connection === connection {
                self = known.access
                return
            }
            let mirror = Mirror(reflecting: connection)
            guard let handle = mirror.descendant("handle", "raw") as? OpaquePointer,
                let threadPool = mirror.descendant("threadPool") as? NIOThreadPool
            else { return nil }
            self.handle = handle
            self.threadPool = threadPool
            Self.known.withLockedValue { [self] known in
                // Connections come rarely (one per event loop, and a pool's replacements): forgetting
                // those gone is cheap then, and keeps the table as small as the open connections.
                known = known.filter { $0.value.connection != nil }
                known[key] = KnownConnection(connection: connection, access: self)
            }
        }

        private static let known = NIOLockedValueBox([ObjectIdentifier: KnownConnection]())
    }

    private struct KnownConnection: @unchecked Sendable {
        weak var connection: SQLiteConnection?
        let access: Access
    }
}

/// One connection's prepared statements by their text. A statement in use is taken out, so two callers
/// never step one statement; only the connection's thread pool calls these, under the lock above, and
/// a statement is used only on that pool.
private struct KeptStatements: @unchecked Sendable {
    private var statements: [String: (statement: OpaquePointer, lastUse: Int)] = [:]
    private var uses = 0
    private(set) var reuses = 0

    var count: Int { statements.count }

    mutating func take(_ sql: String) -> OpaquePointer? {
        guard let entry = statements.removeValue(forKey: sql) else { return nil }
        reuses += 1
        return entry.statement
    }

    /// Keeps `statement`; returns one to finalize when there was one too many (or the same text was
    /// prepared twice meanwhile).
    mutating func give(_ statement: OpaquePointer, for sql: String) -> OpaquePointer? {
        uses += 1
        if let existing = statements[sql] {
            statements[sql] = (statement, uses)
            return existing.statement
        }
        statements[sql] = (statement, uses)
        guard statements.count > SQLiteStatements.perConnection,
            let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse })
        else { return nil }
        statements.removeValue(forKey: oldest.key)
        return oldest.value.statement
    }

    func finalizeAll() {
        for entry in statements.values { sqlite_nio_sqlite3_finalize(entry.statement) }
    }
}

extension SQLiteStatements {
    /// Runs `script` (statements separated by semicolons) in one call on `connection`'s database thread;
    /// false when the connection cannot be reached (then nothing ran).
    static func execute(script: String, on connection: SQLiteConnection) async throws -> Bool {
        guard let access = Access(connection) else { return false }
        try await access.threadPool.runIfActive {
            var failure: UnsafeMutablePointer<CChar>?
            let status = sqlite_nio_sqlite3_exec(access.handle, script, nil, nil, &failure)
            guard status == SQLITE_OK else {
                let message = failure.map { String(cString: $0) } ?? message(of: access.handle)
                sqlite_nio_sqlite3_free(failure)
                throw StatementError(status: status, message: message, sql: String(script.prefix(200)))
            }
        }
        return true
    }
}

extension SQLiteStatements {
    /// The pause between two tries for another connection's write lock, and how many tries a statement
    /// makes before it fails as busy: 30 s at least.
    static let busyPauseMicroseconds: UInt32 = 200
    static let busyTries: Int32 = 150_000

    /// Makes `connection` wait for another connection's write lock by pausing briefly between tries.
    /// SQLiteNIO's own busy handler tries again at once, for ever: a waiting connection spun on a core
    /// (a fifth of the server's CPU under concurrent writes, taken from the very work that holds the
    /// lock). False when the connection cannot be reached.
    static func pauseWhenBusy(on connection: SQLiteConnection) async throws -> Bool {
        guard let access = Access(connection) else { return false }
        try await access.threadPool.runIfActive {
            let status = sqlite_nio_sqlite3_busy_handler(access.handle, pauseBetweenTries, nil)
            guard status == SQLITE_OK else {
                throw StatementError(status: status, message: message(of: access.handle), sql: "busy handler")
            }
        }
        return true
    }

    /// SQLite calls this with the number of tries so far while the lock is held elsewhere; 1 means try
    /// again, 0 gives up (the statement fails with SQLITE_BUSY).
    private static let pauseBetweenTries: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { _, tries in
        guard tries < SQLiteStatements.busyTries else { return 0 }
        usleep(SQLiteStatements.busyPauseMicroseconds)
        return 1
    }
}
