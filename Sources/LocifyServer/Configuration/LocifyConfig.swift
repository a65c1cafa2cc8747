import Foundation
import LocifyCore

/// Everything the server reads from its environment, read once at start-up.
public struct LocifyConfig: Sendable {
    public enum Storage: Sendable, Equatable {
        /// A SQLite file; `nil` keeps the database in memory (tests).
        case sqlite(path: String?)
        case postgres(url: String)

        public var kindName: String {
            switch self {
            case .sqlite: "sqlite"
            case .postgres: "postgres"
            }
        }
    }

    /// Where the outside services are. Each is a URL or a command, so tests point them at local stand-ins.
    public struct OutsideServices: Sendable, Equatable {
        public static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        public static let gravatar = "https://secure.gravatar.com"

        /// An XYZ template with `{z}`, `{x}` and `{y}` (`{s}` is filled with `a`); nil when tiles are off
        /// (`LOCIFY_TILE_URL=off`) and maps draw the bundled basemap only.
        public var tileURLTemplate: String?
        /// The administrator's word that the tile server's policy allows downloading areas for offline use
        /// (`LOCIFY_TILE_OFFLINE=allowed`); saved areas are drawn from Locify's basemap otherwise.
        public var tileOfflineDownloadAllowed = false
        /// Where Gravatar look-ups go (`LOCIFY_GRAVATAR_URL`); nil when they are off.
        public var gravatarBaseURL: String?
        /// The Nominatim server `LOCIFY_GEOCODER=nominatim` asks, e.g. `https://nominatim.example.org`.
        public var nominatimURL: String?
        /// A sendmail-compatible command that reads a whole message on standard input; no mail without it.
        public var mailCommand: String?
        /// A command that reads an SVG on standard input and writes it as a PNG (`LOCIFY_AVATAR_RASTERIZER`;
        /// librsvg's `rsvg-convert` when it is on the PATH); without one, clients that cannot draw SVG get
        /// initials avatars as a plain disc of the contact's colour.
        public var avatarRasterizer: String?
        /// Sent with every outside request; tile and geocoding policies ask for a way to reach the admin.
        public var userAgent: String
        /// The From of notification e-mails (`LOCIFY_MAIL_FROM`; the admin's address, or locify@ the host).
        public var mailFrom: String
        /// Where Settings → Send feedback goes (`LOCIFY_FEEDBACK_EMAIL`): sent through `mailCommand` when
        /// there is one, else written in the person's own mail app.
        public var feedbackEmail: String?

        public init(
            tileURLTemplate: String? = openStreetMapTiles, gravatarBaseURL: String? = gravatar,
            mailCommand: String? = nil, avatarRasterizer: String? = nil,
            userAgent: String = "Locify/\(LocifyConfig.version)", mailFrom: String = "Locify <locify@localhost>"
        ) {
            self.avatarRasterizer = avatarRasterizer
            self.mailFrom = mailFrom
            self.tileURLTemplate = tileURLTemplate
            self.gravatarBaseURL = gravatarBaseURL
            self.mailCommand = mailCommand
            self.userAgent = userAgent
        }
    }

    /// Which geocoder finds coordinates for addresses saved without them.
    public enum GeocoderChoice: String, Sendable, Equatable, CaseIterable {
        /// The bundled GeoNames gazetteer: offline, city-level.
        case gazetteer
        /// A Nominatim server (`LOCIFY_NOMINATIM_URL`): street-level; addresses leave this server.
        case nominatim
        /// No geocoding: addresses keep the coordinates they are given.
        case off
    }

    public var host: String
    public var port: Int
    public var dataDirectory: URL
    public var storage: Storage
    public var registration: RegistrationPolicy
    /// Overrides the scheme and host of links in API responses, for instances behind a proxy.
    public var publicBaseURL: String?
    /// Reads the gazetteer on a background thread right after start-up, so the first geocoding request
    /// does not wait half a second for it. Tests turn it off to keep their cores for themselves.
    public var preloadsGazetteer: Bool
    public var outside: OutsideServices
    public var geocoder: GeocoderChoice
    /// Background workers running jobs (geocoding, notifications); 0 for a web-only instance.
    public var workers: Int
    /// How long an instance's hold on a job or on the periodic work lasts without being renewed
    /// (`LOCIFY_LEASE_SECONDS`, 60 unless set): a holder renews it while it works, so this is how long the
    /// work of an instance that died waits before another instance takes it.
    public var leaseLifetime: TimeInterval = 60
    /// The bearer token `/metrics` asks for (`LOCIFY_METRICS_TOKEN`); without one there is no `/metrics`.
    public var metricsToken: String?
    /// Connections each event loop may open to PostgreSQL: an instance opens at most this many times its
    /// cores.
    public static let postgresConnectionsPerEventLoop = 4
    /// The accounts that see Settings → Server (the jobs, the instances), by e-mail in lower case
    /// (`LOCIFY_ADMIN_EMAILS`, separated by commas); nobody unless set.
    public var adminEmails: Set<String> = []
    /// How long the records of finished work are kept (`Retention`).
    public var retention = Retention()
    /// The largest photo accepted (`LOCIFY_MAX_PHOTO_MB`, 5 MB unless set).
    public var maximumPhotoBytes: Int
    /// How long the sync feed keeps deletions (`LOCIFY_SYNC_RETENTION_DAYS`, 90 unless set); a client away
    /// longer downloads everything again.
    public var syncRetentionDays: Int
    /// The proxies whose forwarded headers are believed (`LOCIFY_TRUSTED_PROXIES`); none unless set.
    public var trustedProxies: TrustedProxies
    /// A raster MBTiles or PMTiles file drawn as the map's tiles and taken for saved areas (`LOCIFY_BASEMAP_FILE`).
    public var basemapFilePath: String?
    /// The OpenID Connect providers people may sign in with (`LOCIFY_OIDC_PROVIDERS`); none unless set.
    public var openIDProviders: [OpenIDProviderConfig] = []

    public static let version = "0.1.0"

    /// Where links in notifications and feeds point when there is no request to take the host from.
    public var baseURLForLinks: String { publicBaseURL ?? "http://\(host):\(port)" }

    public var mailFrom: String { outside.mailFrom }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, storage: Storage,
        registration: RegistrationPolicy = .open, publicBaseURL: String? = nil, preloadsGazetteer: Bool = true,
        outside: OutsideServices = OutsideServices(), geocoder: GeocoderChoice = .gazetteer, workers: Int = 2,
        maximumPhotoBytes: Int = PhotoUpload.defaultMaximumBytes, trustedProxies: TrustedProxies = .none,
        syncRetentionDays: Int = 90
    ) {
        self.maximumPhotoBytes = maximumPhotoBytes
        self.syncRetentionDays = syncRetentionDays
        self.trustedProxies = trustedProxies
        self.outside = outside
        self.geocoder = geocoder
        self.workers = workers
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.storage = storage
        self.registration = registration
        self.publicBaseURL = publicBaseURL
        self.preloadsGazetteer = preloadsGazetteer
    }

    public enum Problem: Error, CustomStringConvertible {
        case invalid(variable: String, value: String, expected: String)

        public var description: String {
            switch self {
            case .invalid(let variable, let value, let expected):
                "\(variable)=\(value) is not valid: expected \(expected)."
            }
        }
    }

    /// Reads `LOCIFY_*` and `DATABASE_URL`; explicit values (command-line flags) win over the environment.
    public static func resolve(
        environment: [String: String], host: String? = nil, port: Int? = nil, dataDirectory: String? = nil
    ) throws -> LocifyConfig {
        let host = host ?? environment["LOCIFY_HOST"] ?? "127.0.0.1"
        var resolvedPort = port
        if resolvedPort == nil, let text = environment["LOCIFY_PORT"] {
            guard let value = Int(text), (0...65535).contains(value) else {
                throw Problem.invalid(variable: "LOCIFY_PORT", value: text, expected: "a port number from 0 to 65535")
            }
            resolvedPort = value
        }
        let directory = URL(
            fileURLWithPath: dataDirectory ?? environment["LOCIFY_DATA_DIR"] ?? "./locify-data", isDirectory: true
        ).standardizedFileURL
        let registration: RegistrationPolicy
        if let text = environment["LOCIFY_REGISTRATION"] {
            guard let policy = RegistrationPolicy(rawValue: text.lowercased()) else {
                throw Problem.invalid(variable: "LOCIFY_REGISTRATION", value: text, expected: "open or closed")
            }
            registration = policy
        } else {
            registration = .open
        }
        let storage: Storage
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw Problem.invalid(variable: "DATABASE_URL", value: "…", expected: "a postgres:// URL")
            }
            storage = .postgres(url: url)
        } else {
            storage = .sqlite(path: directory.appendingPathComponent("locify.sqlite").path)
        }
        let baseURL = environment["LOCIFY_BASE_URL"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let publicBaseURL = baseURL?.isEmpty == true ? nil : baseURL
        var geocoder = GeocoderChoice.gazetteer
        if let text = nonEmpty(environment["LOCIFY_GEOCODER"]) {
            guard let choice = GeocoderChoice(rawValue: text.lowercased()) else {
                throw Problem.invalid(
                    variable: "LOCIFY_GEOCODER", value: text,
                    expected: GeocoderChoice.allCases.map(\.rawValue).joined(separator: " or "))
            }
            geocoder = choice
        }
        let outside = try outsideServices(environment: environment, publicBaseURL: publicBaseURL)
        if geocoder == .nominatim, outside.nominatimURL == nil {
            throw Problem.invalid(
                variable: "LOCIFY_GEOCODER", value: "nominatim", expected: "LOCIFY_NOMINATIM_URL to be set with it")
        }
        let openIDProviders = try OpenIDProviderConfig.providers(environment: environment)
        let workers = try number("LOCIFY_WORKERS", in: 0...64, in: environment) ?? 2
        let maximumPhotoBytes =
            try number("LOCIFY_MAX_PHOTO_MB", in: 1...100, in: environment).map { $0 * 1024 * 1024 }
            ?? PhotoUpload.defaultMaximumBytes
        let syncRetentionDays =
            try number("LOCIFY_SYNC_RETENTION_DAYS", in: 1...3650, in: environment, unit: "days") ?? 90
        var trustedProxies = TrustedProxies.none
        if let text = nonEmpty(environment["LOCIFY_TRUSTED_PROXIES"]) {
            do {
                trustedProxies = try TrustedProxies(parsing: text)
            } catch let problem as TrustedProxies.Problem {
                throw Problem.invalid(
                    variable: "LOCIFY_TRUSTED_PROXIES", value: text,
                    expected:
                        "IP addresses or networks such as 10.0.0.0/8, separated by commas (\(problem.entry) is neither)"
                )
            }
        }
        var config = LocifyConfig(
            host: host, port: resolvedPort ?? 8080, dataDirectory: directory, storage: storage,
            registration: registration, publicBaseURL: publicBaseURL,
            outside: outside, geocoder: geocoder, workers: workers, maximumPhotoBytes: maximumPhotoBytes,
            trustedProxies: trustedProxies, syncRetentionDays: syncRetentionDays)
        if let seconds = try number("LOCIFY_LEASE_SECONDS", in: 5...3600, in: environment, unit: "seconds") {
            config.leaseLifetime = TimeInterval(seconds)
        }
        if let days = try number("LOCIFY_JOB_RETENTION_DAYS", in: 1...3650, in: environment, unit: "days") {
            config.retention.finishedJobs = TimeInterval(days) * 86_400
        }
        if let days = try number("LOCIFY_DELIVERY_RETENTION_DAYS", in: 1...3650, in: environment, unit: "days") {
            config.retention.deliveryLog = TimeInterval(days) * 86_400
        }
        if let token = nonEmpty(environment["LOCIFY_METRICS_TOKEN"]) {
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw Problem.invalid(
                    variable: "LOCIFY_METRICS_TOKEN", value: "…",
                    expected: "at least 16 characters without spaces (e.g. from `openssl rand -hex 32`)")
            }
            config.metricsToken = token
        }
        if let text = nonEmpty(environment["LOCIFY_ADMIN_EMAILS"]) {
            config.adminEmails = Set(
                text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter {
                    !$0.isEmpty
                })
        }
        if let path = nonEmpty(environment["LOCIFY_BASEMAP_FILE"]) {
            guard [".mbtiles", ".pmtiles"].contains(where: path.lowercased().hasSuffix) else {
                throw Problem.invalid(
                    variable: "LOCIFY_BASEMAP_FILE", value: path,
                    expected: "the path of a raster .mbtiles or .pmtiles file")
            }
            config.basemapFilePath = path
        }
        config.openIDProviders = openIDProviders
        return config
    }

    /// The whole number `variable` holds, nil when it is unset; one outside `range` is refused.
    private static func number(
        _ variable: String, in range: ClosedRange<Int>, in environment: [String: String], unit: String? = nil
    ) throws -> Int? {
        guard let text = nonEmpty(environment[variable]) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            let what = unit.map { "a number of \($0)" } ?? "a number"
            throw Problem.invalid(
                variable: variable, value: text,
                expected: "\(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// OpenStreetMap's own tile servers, whose usage policy forbids bulk and offline downloads.
    static func isOpenStreetMapTileServer(_ template: String) -> Bool {
        let filled = ["{s}", "{z}", "{x}", "{y}"].reduce(template) { $0.replacingOccurrences(of: $1, with: "0") }
        guard let host = URL(string: filled)?.host?.lowercased() else {
            return false
        }
        return host == "openstreetmap.org" || host.hasSuffix(".openstreetmap.org")
    }

    private static func outsideServices(environment: [String: String], publicBaseURL: String?) throws
        -> OutsideServices
    {
        var outside = OutsideServices()
        if let template = nonEmpty(environment["LOCIFY_TILE_URL"]), template.lowercased() == "off" {
            outside.tileURLTemplate = nil
        } else if let template = nonEmpty(environment["LOCIFY_TILE_URL"]) {
            guard isWebURL(template), ["{z}", "{x}", "{y}"].allSatisfy(template.contains) else {
                throw Problem.invalid(
                    variable: "LOCIFY_TILE_URL", value: template,
                    expected: "an http(s) URL template with {z}, {x} and {y}, or off")
            }
            outside.tileURLTemplate = template
        }
        if let policy = nonEmpty(environment["LOCIFY_TILE_OFFLINE"]) {
            switch policy.lowercased() {
            case "allowed":
                guard let template = outside.tileURLTemplate, !isOpenStreetMapTileServer(template) else {
                    throw Problem.invalid(
                        variable: "LOCIFY_TILE_OFFLINE", value: policy,
                        expected:
                            "forbidden, or allowed with LOCIFY_TILE_URL naming a tile server whose policy allows offline download (OpenStreetMap's public servers forbid it)"
                    )
                }
                outside.tileOfflineDownloadAllowed = true
            case "forbidden": outside.tileOfflineDownloadAllowed = false
            default:
                throw Problem.invalid(variable: "LOCIFY_TILE_OFFLINE", value: policy, expected: "allowed or forbidden")
            }
        }
        if let url = nonEmpty(environment["LOCIFY_GRAVATAR_URL"]), url.lowercased() == "off" {
            outside.gravatarBaseURL = nil
        } else if let url = nonEmpty(environment["LOCIFY_GRAVATAR_URL"]) {
            guard isWebURL(url) else {
                throw Problem.invalid(variable: "LOCIFY_GRAVATAR_URL", value: url, expected: "an http(s) URL or off")
            }
            outside.gravatarBaseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        if let url = nonEmpty(environment["LOCIFY_NOMINATIM_URL"]) {
            guard isWebURL(url) else {
                throw Problem.invalid(variable: "LOCIFY_NOMINATIM_URL", value: url, expected: "an http(s) URL")
            }
            outside.nominatimURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        outside.mailCommand = nonEmpty(environment["LOCIFY_SENDMAIL"])
        switch nonEmpty(environment["LOCIFY_AVATAR_RASTERIZER"]) {
        case let command? where command.lowercased() == "off": outside.avatarRasterizer = nil
        case let command?: outside.avatarRasterizer = command
        case nil: outside.avatarRasterizer = executable(named: "rsvg-convert", onPath: environment["PATH"])
        }
        if let address = nonEmpty(environment["LOCIFY_FEEDBACK_EMAIL"]) {
            guard EmailAddress.isMailbox(address) else {
                throw Problem.invalid(variable: "LOCIFY_FEEDBACK_EMAIL", value: address, expected: "an e-mail address")
            }
            outside.feedbackEmail = address
        }
        let baseHost = publicBaseURL.flatMap { URLComponents(string: $0)?.host }
        if let from = nonEmpty(environment["LOCIFY_MAIL_FROM"]) {
            outside.mailFrom = from
        } else if let admin = nonEmpty(environment["LOCIFY_ADMIN_EMAIL"]) {
            outside.mailFrom = "Locify <\(admin)>"
        } else if let baseHost {
            outside.mailFrom = "Locify <locify@\(baseHost)>"
        }
        let contact = nonEmpty(environment["LOCIFY_ADMIN_EMAIL"]) ?? publicBaseURL
        outside.userAgent = "Locify/\(version)" + (contact.map { " (\($0))" } ?? "")
        return outside
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }

    /// The full path of `name` in the first of `path`'s directories holding it as an executable file.
    private static func executable(named name: String, onPath path: String?) -> String? {
        guard let path else { return nil }
        return path.split(separator: ":").lazy.map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func isWebURL(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }
}

extension LocifyConfig {
    /// How long the records of finished work stay before the periodic clean-up lets them go. Failed jobs
    /// are never let go by it: they wait for an operator (`locify jobs`).
    public struct Retention: Sendable, Equatable {
        /// Jobs done (`LOCIFY_JOB_RETENTION_DAYS`, 7 unless set).
        public var finishedJobs: TimeInterval = 7 * 86_400
        /// The webhook and e-mail delivery log (`LOCIFY_DELIVERY_RETENTION_DAYS`, 90 unless set).
        public var deliveryLog: TimeInterval = 90 * 86_400

        public init() {}
    }
}
