import Fluent
import Foundation
import LocifyCore
import SQLKit
import Vapor
import ZIPFoundation

/// `locify backup` and `locify restore`: a consistent snapshot of the whole database, taken while the
/// server runs, in one compressed file that brings it back into an empty database of the same kind.
///
/// The file is a zip archive holding `manifest.json` (what it is) and the snapshot: on SQLite the
/// database as `VACUUM INTO` writes it (one read transaction, so one moment, while the server goes on
/// writing), on PostgreSQL a `pg_dump` archive in its custom format (one repeatable-read transaction).
/// Photos and documents are rows of the database, so they are in it; the data directory's other files
/// (the tile cache, saved map areas) are made again on demand.
public enum DatabaseBackup {
    /// What a backup file says of itself.
    public struct Manifest: Codable, Sendable, Equatable {
        public var format = "locify-backup"
        public var formatVersion = 1
        public var locifyVersion: String
        /// `sqlite` or `postgres`.
        public var database: String
        public var createdAt: Date
        /// The migrations the database had: a restore into a newer Locify runs the ones since.
        public var migrations: Int

        enum CodingKeys: String, CodingKey {
            case format
            case formatVersion = "format_version"
            case locifyVersion = "locify_version"
            case database
            case createdAt = "created_at"
            case migrations
        }
    }

    /// What a backup or a restore did, for the person at the terminal.
    public struct Outcome: Sendable {
        public let manifest: Manifest
        /// The snapshot's size before compression, and the file's.
        public let snapshotBytes: Int
        public let fileBytes: Int
        public let seconds: Double
    }

    static let manifestName = "manifest.json"
    static func snapshotName(for kind: String) -> String { kind == "sqlite" ? "locify.sqlite" : "locify.pgdump" }

    /// Writes a backup of `application`'s database to `destination` (replaced only once the new file is
    /// whole), saying each step to `progress`.
    public static func write(
        of application: Application, to destination: URL, progress: @Sendable (String) -> Void
    ) async throws -> Outcome {
        let started = ContinuousClock.now
        let config = application.locifyConfig
        let kind = config.storage.kindName
        let work = try temporaryDirectory(beside: destination)
        defer { try? FileManager.default.removeItem(at: work) }
        let snapshot = work.appendingPathComponent(snapshotName(for: kind))
        let migrations = try await application.appliedMigrations()?.count ?? 0
        switch config.storage {
        case .sqlite(let path):
            guard path != nil else { throw CommandFailure("An in-memory database cannot be backed up.") }
            // One statement, one read transaction: the copy is the database at one moment, and writers
            // go on meanwhile (WAL).
            try await application.db.sqlDatabase().raw("VACUUM INTO \(bind: snapshot.path)").run()
        case .postgres(let url):
            try await PostgresTool.run(
                "pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file", snapshot.path], url: url)
        }
        let snapshotBytes = try fileSize(snapshot)
        progress("Took a snapshot of the \(kind) database (\(megabytes(snapshotBytes))).")
        let manifest = Manifest(
            locifyVersion: LocifyConfig.version, database: kind, createdAt: application.dependencies.now(),
            migrations: migrations)
        let manifestFile = work.appendingPathComponent(manifestName)
        try manifestEncoder.encode(manifest).write(to: manifestFile)
        let archiveFile = work.appendingPathComponent("backup.zip")
        let archive = try Archive(url: archiveFile, accessMode: .create)
        try archive.addEntry(with: manifestName, relativeTo: work, compressionMethod: .deflate)
        try archive.addEntry(with: snapshot.lastPathComponent, relativeTo: work, compressionMethod: .deflate)
        // A rename within one directory: a file already there is replaced whole or not at all.
        guard rename(archiveFile.path, destination.path) == 0 else {
            throw CommandFailure("Could not write \(destination.path): \(String(cString: strerror(errno))).")
        }
        let fileBytes = try fileSize(destination)
        progress("Wrote \(destination.path) (\(megabytes(fileBytes)) compressed).")
        return Outcome(
            manifest: manifest, snapshotBytes: snapshotBytes, fileBytes: fileBytes,
            seconds: seconds(since: started))
    }

    /// Brings the backup at `source` back into the empty database `config` names, then runs the
    /// migrations since. Refuses a database that has tables, and a backup of the other kind.
    public static func restore(
        from source: URL, config: LocifyConfig, progress: @Sendable (String) -> Void
    ) async throws -> Outcome {
        let started = ContinuousClock.now
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw CommandFailure("There is no file \(source.path).")
        }
        let archive: Archive
        do {
            archive = try Archive(url: source, accessMode: .read)
        } catch {
            throw CommandFailure("\(source.path) is not a Locify backup: it is not a zip archive.")
        }
        guard let manifestEntry = archive[manifestName] else {
            throw CommandFailure("\(source.path) is not a Locify backup: it has no \(manifestName).")
        }
        var manifestData = Data()
        _ = try archive.extract(manifestEntry, skipCRC32: false) { manifestData.append($0) }
        guard let manifest = try? manifestDecoder.decode(Manifest.self, from: manifestData),
            manifest.format == "locify-backup"
        else { throw CommandFailure("\(source.path) is not a Locify backup: its manifest cannot be read.") }
        guard manifest.formatVersion <= 1 else {
            throw CommandFailure(
                "This backup was written by a newer Locify (\(manifest.locifyVersion)); restore it with that version.")
        }
        let kind = config.storage.kindName
        guard manifest.database == kind else {
            throw CommandFailure(
                "This backup is of a \(manifest.database) database, and this server uses \(kind): restore it "
                    + "into a server set up as the one it came from (DATABASE_URL set for PostgreSQL, unset for SQLite)."
            )
        }
        guard manifest.migrations <= locifyMigrations.count else {
            throw CommandFailure(
                "This backup holds \(manifest.migrations) migrations and this Locify knows \(locifyMigrations.count): "
                    + "restore it with Locify \(manifest.locifyVersion) or newer.")
        }
        guard let snapshotEntry = archive[snapshotName(for: kind)] else {
            throw CommandFailure("\(source.path) is damaged: it has no \(snapshotName(for: kind)).")
        }
        progress(
            "Restoring a \(kind) backup of \(Timestamp.string(manifest.createdAt)) (Locify \(manifest.locifyVersion)).")
        switch config.storage {
        case .sqlite(let path):
            guard let path else { throw CommandFailure("An in-memory database cannot be restored into.") }
            try await restoreSQLite(snapshotEntry, from: archive, to: URL(fileURLWithPath: path))
        case .postgres(let url):
            try await restorePostgres(snapshotEntry, from: archive, url: url, config: config)
        }
        progress("The snapshot is in place; bringing its schema up to date.")
        try await LocifyApp.withApplication(config: config) { _ in }
        return Outcome(
            manifest: manifest, snapshotBytes: Int(snapshotEntry.uncompressedSize),
            fileBytes: try fileSize(source), seconds: seconds(since: started))
    }

    private static func restoreSQLite(_ entry: Entry, from archive: Archive, to target: URL) async throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: target.path) {
            let hasTables = try await LocifyApp.withUnmigratedDatabase(config: sqliteConfig(target)) { database in
                try await !database.plainRows(
                    #"SELECT "name" FROM "sqlite_master" WHERE "type" = 'table' LIMIT 1"#, columns: ["name"]
                ).isEmpty
            }
            if hasTables {
                throw CommandFailure(
                    "\(target.path) already holds a database: a backup is restored into an empty one. Stop the "
                        + "server and move that file away first (keep it until the restored one works).")
            }
        }
        try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let incoming = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).restoring")
        try? manager.removeItem(at: incoming)
        _ = try archive.extract(entry, to: incoming, skipCRC32: false)
        // The empty file's write-ahead log and index would be taken for the restored database's.
        for suffix in ["", "-wal", "-shm"] {
            try? manager.removeItem(atPath: target.path + suffix)
        }
        try manager.moveItem(at: incoming, to: target)
    }

    private static func restorePostgres(_ entry: Entry, from archive: Archive, url: String, config: LocifyConfig)
        async throws
    {
        let tables = try await LocifyApp.withUnmigratedDatabase(config: config) { database in
            try await database.plainRows(
                #"SELECT COUNT(*) AS "n" FROM "pg_tables" WHERE "schemaname" = current_schema()"#, columns: ["n"]
            ).first?.requiredInteger(0) ?? 0
        }
        guard tables == 0 else {
            throw CommandFailure(
                "The database DATABASE_URL names already has \(tables) tables: a backup is restored into an empty "
                    + "one. Create a new database (createdb) and point DATABASE_URL at it.")
        }
        let work = try temporaryDirectory(beside: URL(fileURLWithPath: NSTemporaryDirectory()))
        defer { try? FileManager.default.removeItem(at: work) }
        let dump = work.appendingPathComponent(entry.path)
        _ = try archive.extract(entry, to: dump, skipCRC32: false)
        try await PostgresTool.run(
            "pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", dump.path],
            url: url)
    }

    private static func sqliteConfig(_ file: URL) -> LocifyConfig {
        LocifyConfig(
            dataDirectory: file.deletingLastPathComponent(), storage: .sqlite(path: file.path),
            preloadsGazetteer: false, workers: 0)
    }

    private static func temporaryDirectory(beside file: URL) throws -> URL {
        let directory = file.deletingLastPathComponent().appendingPathComponent(
            ".locify-backup-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func fileSize(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static var manifestEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var manifestDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// PostgreSQL's own client tools (`pg_dump`, `pg_restore`), run without a shell; the password travels in
/// `PGPASSWORD` rather than on a command line other users of the machine can read.
enum PostgresTool {
    static func run(_ tool: String, _ arguments: [String], url: String) async throws {
        guard var components = URLComponents(string: url) else {
            throw CommandFailure("DATABASE_URL cannot be read as a URL.")
        }
        var environment = ProcessInfo.processInfo.environment
        if let password = components.password {
            environment["PGPASSWORD"] = password
            components.password = nil
        }
        guard let executable = find(tool, in: environment["PATH"] ?? "") else {
            throw CommandFailure(
                "\(tool) was not found on PATH: install PostgreSQL's client tools (Debian: apt-get install "
                    + "postgresql-client), of the server's version or newer.")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + ["--dbname", components.string ?? url]
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CommandFailure(
                "\(tool) failed (exit \(status)): \(said.trimmingCharacters(in: .whitespacesAndNewlines).prefix(2000))")
        }
    }

    private static func find(_ tool: String, in path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
