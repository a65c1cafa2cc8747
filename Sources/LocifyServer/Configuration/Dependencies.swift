import Foundation
import LocifyCore
import Vapor

/// The side effects the server performs, each behind a small client so tests can replace it.
///
/// To add an outside service: declare a protocol for it in `OutsideServices/`, put a property here, give
/// `live(_:)` the real client (built on `http`, so it identifies itself like the others), and give
/// `TestDependencies` (under the tests) a client that fails with the service's name until a test sets a
/// stand-in.
public struct LocifyDependencies: Sendable {
    /// The current instant. Tests fix it, so dates in responses are predictable.
    public var now: @Sendable () -> Date
    /// New UUIDs for stored rows. Tests make them predictable, which pins a contact's avatar colour too.
    public var newUUID: @Sendable () -> UUID
    /// Hashes and checks passwords. Production uses bcrypt cost 12; tests use a lower cost.
    public var passwords: PasswordHasher
    /// New random secrets (API tokens, session ids, CSRF tokens).
    public var newSecret: @Sendable () -> String
    /// Turns addresses into coordinates and back.
    public var geocoder: any Geocoder
    /// Plain HTTP to the outside world, for services that have no client of their own yet.
    var http: any HTTPFetching
    /// Raster map tiles from the configured XYZ server.
    var tiles: any TileFetching
    var gravatar: any GravatarFetching
    var webhooks: any WebhookSending
    var mailer: any MailSending
    var rasterizer: any SVGRasterizing

    init(
        now: @escaping @Sendable () -> Date, newUUID: @escaping @Sendable () -> UUID, passwords: PasswordHasher,
        newSecret: @escaping @Sendable () -> String, geocoder: any Geocoder, http: any HTTPFetching,
        tiles: any TileFetching, gravatar: any GravatarFetching, webhooks: any WebhookSending, mailer: any MailSending,
        rasterizer: any SVGRasterizing
    ) {
        self.rasterizer = rasterizer
        self.now = now
        self.newUUID = newUUID
        self.passwords = passwords
        self.newSecret = newSecret
        self.geocoder = geocoder
        self.http = http
        self.tiles = tiles
        self.gravatar = gravatar
        self.webhooks = webhooks
        self.mailer = mailer
    }

    /// The real clock, ids and clients, the outside ones pointed where `config` says.
    public static func live(_ config: LocifyConfig) -> LocifyDependencies {
        let http = LiveHTTPClient(client: .shared, userAgent: config.outside.userAgent)
        return LocifyDependencies(
            now: { Date() }, newUUID: { UUID() }, passwords: .bcrypt(cost: 12),
            newSecret: { PersonalToken.generate() }, geocoder: geocoder(config, http: http), http: http,
            tiles: config.outside.tileURLTemplate.map { URLTemplateTileFetcher(template: $0, http: http) }
                ?? TilesOff(),
            gravatar: config.outside.gravatarBaseURL.map { LiveGravatarClient(baseURL: $0, http: http) }
                ?? GravatarOff(),
            webhooks: LiveWebhookSender(http: http),
            mailer: config.outside.mailCommand.map { CommandMailer(command: $0) } ?? MailNotConfigured(),
            rasterizer: config.outside.avatarRasterizer.map { CommandRasterizer(command: $0) } ?? RasterizerOff())
    }

    private static func geocoder(_ config: LocifyConfig, http: any HTTPFetching) -> any Geocoder {
        switch (config.geocoder, config.outside.nominatimURL) {
        case (.nominatim, let url?):
            NominatimGeocoder(baseURL: url, http: http, spacing: RequestSpacing(interval: .seconds(1)))
        default:
            BundledGeocoder()
        }
    }
}

public struct PasswordHasher: Sendable {
    public var hash: @Sendable (String) throws -> String
    public var verify: @Sendable (String, String) throws -> Bool

    public init(
        hash: @escaping @Sendable (String) throws -> String, verify: @escaping @Sendable (String, String) throws -> Bool
    ) {
        self.hash = hash
        self.verify = verify
    }

    public static func bcrypt(cost: Int) -> PasswordHasher {
        PasswordHasher(
            hash: { try Bcrypt.hash($0, cost: cost) },
            verify: { password, digest in try Bcrypt.verify(password, created: digest) })
    }
}

/// The offline geocoder over the bundled gazetteer, built on first use so start-up does not wait for it.
struct BundledGeocoder: Geocoder {
    private static let shared = GazetteerGeocoder()

    /// Builds the geocoder and loads the gazetteer it searches, so the first search does not wait.
    static func prepare() -> Int {
        _ = shared
        return Gazetteer.bundled.places.count
    }

    func search(_ query: GeocodingQuery) async throws -> [GeocodingResult] {
        try await Self.shared.search(query)
    }

    func reverse(_ coordinate: Coordinate) async throws -> GeocodingResult? {
        try await Self.shared.reverse(coordinate)
    }

    func nearby(_ coordinate: Coordinate, limit: Int) async throws -> [GeocodingResult] {
        try await Self.shared.nearby(coordinate, limit: limit)
    }
}

extension Application {
    private struct DependenciesKey: StorageKey {
        typealias Value = LocifyDependencies
    }

    private struct ConfigKey: StorageKey {
        typealias Value = LocifyConfig
    }

    /// A value `configure` stores once; reading it before then is a programming error worth stopping on.
    func configured<Key: StorageKey>(_ key: Key.Type) -> Key.Value {
        guard let value = storage[key] else { fatalError("configure(_:config:dependencies:) was not called") }
        return value
    }

    public var dependencies: LocifyDependencies {
        get { configured(DependenciesKey.self) }
        set { storage[DependenciesKey.self] = newValue }
    }

    public var locifyConfig: LocifyConfig {
        get { configured(ConfigKey.self) }
        set { storage[ConfigKey.self] = newValue }
    }

}

extension NIOThreadPool {
    /// Runs CPU-heavy work (hashing, parsing an import, rendering tiles) off the event loops, so they stay
    /// free to answer other requests. Every feature's heavy work goes through `Application.cpuWork`.
    func offloaded<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await runIfActive {
            Self.yieldToRequests()
            return try work()
        }
    }

    /// Lowers the calling thread's priority (Linux keeps one for each thread), so that on a machine with as
    /// many cores as the pool has threads, a gazetteer load or an import's checking takes the CPU only
    /// when the event loops and the database's threads leave it idle. Idempotent; a few hundred
    /// nanoseconds.
    static func yieldToRequests() {
        #if os(Linux)
            let thread = id_t(currentThreadID())
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            if getpriority(which, thread) < lowPriority {
                _ = setpriority(which, thread, lowPriority)
            }
        #endif
    }

    /// nice 10: the scheduler gives such a thread about a tenth of a core another thread wants.
    static let lowPriority: Int32 = 10
}

#if os(Linux)
    /// glibc's `gettid` (2.30 and later), which the Glibc module does not export: the calling thread's id,
    /// which `setpriority` takes in place of a process id.
    @_silgen_name("gettid")
    private func currentThreadID() -> Int32
#endif

extension Application {
    private struct CPUWorkKey: StorageKey {
        typealias Value = NIOThreadPool
    }

    /// The threads for long CPU work: password hashing, the gazetteer, basemap tiles, reading and writing
    /// import and export files. Apart from `threadPool`, where the SQLite driver runs every query, so that
    /// a write never queues behind a gazetteer load or a 100,000-place file.
    var cpuWork: NIOThreadPool {
        get { configured(CPUWorkKey.self) }
        set { storage[CPUWorkKey.self] = newValue }
    }
}

/// Stops the CPU pool (started by `configure`) when the application shuts down.
struct CPUWorkLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        try? await application.cpuWork.shutdownGracefully()
    }
}

extension Request {
    var dependencies: LocifyDependencies { application.dependencies }
    var now: Date { application.dependencies.now() }

    /// Today in the signed-in user's timezone; in UTC for a request with no user.
    var today: CalendarDate {
        let now = now
        return auth.get(AuthenticatedUser.self)?.today(now: now) ?? CalendarDate(now, in: .gmt)
    }
}
