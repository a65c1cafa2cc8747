import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for the test run: `initdb` + `pg_ctl` on a free loopback port,
/// run as the `postgres` user when the tests run as root (PostgreSQL refuses root), stopped and
/// deleted when the test process exits. `LOCIFY_TEST_DATABASE_URL` points the tests at an existing
/// server instead.
actor PostgresCluster {
    static let shared = PostgresCluster()

    private var url: String?

    /// Whether the tests can have a PostgreSQL, and what to tell the person when they cannot.
    enum Availability: Equatable {
        /// `LOCIFY_TEST_DATABASE_URL` names one.
        case configured
        /// `initdb` and `pg_ctl` are on PATH: the run starts its own cluster.
        case installed
        /// Neither: the PostgreSQL half is left out, unless `LOCIFY_TEST_POSTGRES=required` (CI) says it may not be.
        case missing(required: Bool)

        init(environment: [String: String], isExecutable: (String) -> Bool) {
            if let configured = environment["LOCIFY_TEST_DATABASE_URL"], !configured.isEmpty {
                self = .configured
                return
            }
            let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
            let found = ["initdb", "pg_ctl"].allSatisfy { tool in
                directories.contains { isExecutable($0 + "/" + tool) }
            }
            self = found ? .installed : .missing(required: environment["LOCIFY_TEST_POSTGRES"] == "required")
        }

        static let here = Availability(environment: ProcessInfo.processInfo.environment) {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        static let notFound = "PostgreSQL was not found (no initdb and pg_ctl on PATH, no LOCIFY_TEST_DATABASE_URL)"
        static let howToInstall = """
            install PostgreSQL (Debian and Ubuntu: `apt-get install postgresql`, then put \
            /usr/lib/postgresql/<version>/bin on PATH; macOS: `brew install postgresql`) or point \
            LOCIFY_TEST_DATABASE_URL at a server whose database may be emptied.
            """
        /// Said once per run, on the first test that would have used PostgreSQL.
        static let notice =
            notFound + ": running the SQLite half of the server tests only. To run the PostgreSQL half too, "
            + howToInstall
    }

    /// The databases this run tests: SQLite always, PostgreSQL when there is one. Without one, the notice is
    /// printed once; when `LOCIFY_TEST_POSTGRES=required`, the PostgreSQL half still runs (and fails, saying why).
    static let testedDatabases: [TestDatabase] = {
        guard case .missing(let required) = Availability.here, !required else { return TestDatabase.allCases }
        FileHandle.standardError.write(Data(("\n" + Availability.notice + "\n\n").utf8))
        return [.sqlite]
    }()

    func databaseURL() throws -> String {
        if let url { return url }
        if let configured = ProcessInfo.processInfo.environment["LOCIFY_TEST_DATABASE_URL"], !configured.isEmpty {
            url = configured
            return configured
        }
        if case .missing(let required) = Availability.here {
            _ = Self.testedDatabases  // the notice, once
            guard required else { throw XCTSkip("PostgreSQL is not installed here (see the notice above).") }
            throw Failure(
                description: "LOCIFY_TEST_POSTGRES=required, but \(Availability.notFound): "
                    + Availability.howToInstall)
        }
        let started = try Self.start()
        url = started
        return started
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func start() throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "locify-pg-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot {
            try run("/bin/chown", ["postgres", directory.path])
        }
        let port = try freePort()
        let dataDirectory = directory.appendingPathComponent("data").path
        try runPostgresTool(
            "initdb", ["-D", dataDirectory, "--auth=trust", "-U", "postgres", "--encoding=UTF8", "-N"], asRoot: asRoot)
        try runPostgresTool(
            "pg_ctl",
            [
                "-D", dataDirectory, "-l", directory.appendingPathComponent("log").path, "-w", "-o",
                "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off",
                "start",
            ], asRoot: asRoot)
        ClusterCleanup.register(dataDirectory: dataDirectory, directory: directory.path, asRoot: asRoot)
        return "postgres://postgres@127.0.0.1:\(port)/postgres"
    }

    private static func runPostgresTool(_ tool: String, _ arguments: [String], asRoot: Bool) throws {
        if asRoot {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments)
        } else {
            try run("/usr/bin/env", [tool] + arguments)
        }
    }

    /// Runs a tool and waits for it with posix_spawn + waitpid: Foundation's `Process.waitUntilExit`
    /// can wait for ever when called from Swift concurrency's thread pool on Linux. Output goes to a
    /// file, not a pipe, because the server pg_ctl starts inherits the descriptors.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locify-pg-\(UUID().uuidString).out"
        ).path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "could not start \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitedCleanly = (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0
        guard exitedCleanly else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure(
                description: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
    }

    /// Asks the kernel for a free port by binding port 0.
    private static func freePort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "could not find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Stops the cluster at process exit. `atexit` takes a plain C function, hence the global state.
enum ClusterCleanup {
    nonisolated(unsafe) static var stopCommand: (dataDirectory: String, directory: String, asRoot: Bool)?

    static func register(dataDirectory: String, directory: String, asRoot: Bool) {
        stopCommand = (dataDirectory, directory, asRoot)
        atexit {
            guard let command = ClusterCleanup.stopCommand else { return }
            let stop = ["pg_ctl", "-D", command.dataDirectory, "-m", "immediate", "-w", "stop"]
            try? PostgresCluster.run(
                command.asRoot ? "/usr/sbin/runuser" : "/usr/bin/env",
                command.asRoot ? ["-u", "postgres", "--"] + stop : stop)
            try? FileManager.default.removeItem(atPath: command.directory)
        }
    }
}
