import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import SQLKit
import XCTVapor

@testable import LocifyServer

/// Quiet logs unless LOCIFY_TEST_LOG_LEVEL asks for more, so failures are not buried.
enum TestLogging {
    static let bootstrapOnce: @Sendable () -> Void = {
        let level =
            ProcessInfo.processInfo.environment["LOCIFY_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return {}
    }()
}

/// A clock the tests move by hand.
final class TestClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    /// 2024-05-04T10:06:05Z, the example instant of MONICA-API.md.
    static let start = Date(timeIntervalSince1970: 1_714_817_165)

    init(_ start: Date = TestClock.start) {
        current = NIOLockedValueBox(start)
    }

    var now: Date { current.withLockedValue { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}

enum TestDatabase: String, CaseIterable {
    case sqlite
    case postgres
}

/// Runs `body` once per database against a fresh, migrated application on a fixed clock (PostgreSQL only where
/// there is one: `PostgresCluster.testedDatabases`). A failure on one database is reported under its name and
/// does not stop the run on the other.
func forEachDatabase(
    registration: RegistrationPolicy = .open, file: StaticString = #filePath, line: UInt = #line,
    _ body: (Application, TestClock, TestDatabase) async throws -> Void
) async throws {
    for database in PostgresCluster.testedDatabases {
        do {
            try await withApp(database, registration: registration) { app, clock in
                try await body(app, clock, database)
            }
        } catch {
            XCTFail("[\(database)] \(String(reflecting: error))", file: file, line: line)
        }
    }
}

func withApp(
    _ database: TestDatabase, registration: RegistrationPolicy = .open,
    _ body: (Application, TestClock) async throws -> Void
) async throws {
    let clock = TestClock()
    let storage: LocifyConfig.Storage
    switch database {
    case .sqlite: storage = .sqlite(path: nil)
    case .postgres: storage = .postgres(url: try await PostgresCluster.shared.databaseURL())
    }
    try await withInstance(storage: storage, clock: clock, registration: registration, emptiesDatabase: true) { app in
        try await body(app, clock)
    }
}

/// Runs `body` with two servers on one database (a SQLite file, or the test cluster's PostgreSQL), then a
/// third started after both stopped, as a restart would: what one instance keeps, the others must see.
func withInstancesSharingOneDatabase(
    _ database: TestDatabase,
    _ body: (_ first: Application, _ second: Application, TestClock) async throws -> Void,
    afterRestart: (Application) async throws -> Void
) async throws {
    let clock = TestClock()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "locify-shared-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage: LocifyConfig.Storage
    switch database {
    case .sqlite: storage = .sqlite(path: directory.appendingPathComponent("shared.sqlite").path)
    case .postgres: storage = .postgres(url: try await PostgresCluster.shared.databaseURL())
    }
    try await withInstance(storage: storage, clock: clock, emptiesDatabase: true) { first in
        try await withInstance(storage: storage, clock: clock, emptiesDatabase: false) { second in
            try await body(first, second, clock)
        }
    }
    try await withInstance(storage: storage, clock: clock, emptiesDatabase: false, afterRestart)
}

/// One migrated application on `storage`; PostgreSQL starts from an empty schema when `emptiesDatabase`.
func withInstance(
    storage: LocifyConfig.Storage, clock: TestClock, registration: RegistrationPolicy = .open,
    emptiesDatabase: Bool, _ body: (Application) async throws -> Void
) async throws {
    TestLogging.bootstrapOnce()
    // Each application gets a data directory of its own (the tile cache lives there), removed afterwards.
    let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "locify-test-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: dataDirectory) }
    let config = LocifyConfig(
        dataDirectory: dataDirectory, storage: storage, registration: registration, preloadsGazetteer: false,
        workers: 0)
    let dependencies = LocifyDependencies.testing(clock: clock)
    try await Application.make(.testing).shuttingDown { app in
        try await configure(app, config: config, dependencies: dependencies)
        if emptiesDatabase, case .postgres = storage, let sql = app.db as? any SQLDatabase {
            // One cluster serves every test; each starts from an empty schema.
            try await sql.raw("DROP SCHEMA public CASCADE").run()
            try await sql.raw("CREATE SCHEMA public").run()
        }
        try await app.migrateDatabase()
        try await body(app)
    }
}

/// An account with a personal token, made through the same service the web and CLI use.
struct TestAccount {
    let id: Int
    let email: String
    let password: String
    let token: String

    var bearer: HTTPHeaders { ["Authorization": "Bearer \(token)"] }
}

extension Application {
    func makeAccount(
        email: String = "ada@example.com", name: String = "Ada Lovelace", password: String = "correct horse"
    ) async throws -> TestAccount {
        let user = try await accounts.register(
            AccountDraft(name: name, email: email), password: password, policy: .open)
        let id = user.id
        let (_, token) = try await accounts.createToken(for: id, label: "tests")
        return TestAccount(id: id, email: email, password: password, token: token)
    }

    /// A contact of `account`, made through the same service the API, the web and imports use.
    @discardableResult
    func makeContact(for account: TestAccount, _ draft: ContactDraft) async throws -> Contact {
        guard let user = try await db.user(account.id) else { throw AppError.notFound }
        return try await ContactService(database: db, owner: user, dependencies: dependencies).create(draft)
    }

    /// The account a web client registered, for making its data through services.
    func account(email: String) async throws -> TestAccount {
        guard let user = try await accounts.user(withEmail: email) else { throw AppError.notFound }
        return TestAccount(id: user.id, email: email, password: "", token: "")
    }

    /// The account a web client registered, with an API token of its own, for checking pages through the API.
    func apiAccount(email: String) async throws -> TestAccount {
        let account = try await account(email: email)
        let (_, token) = try await accounts.createToken(for: account.id, label: "tests")
        return TestAccount(id: account.id, email: email, password: "", token: token)
    }

    /// Creates through the API and answers the new record's id (201, or 200 where Monica answers so).
    func createdID(
        by account: TestAccount, _ path: String, _ json: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Int {
        let response = try await send(.POST, path, headers: account.bearer, json: json)
        XCTAssertTrue([.created, .ok].contains(response.status), "\(path): \(response.text)", file: file, line: line)
        let data = try response.json(file: file, line: line)["data"] as? [String: Any]
        return try XCTUnwrap(data?["id"] as? Int, "\(path): \(response.text)", file: file, line: line)
    }

    /// Sends JSON and returns the response.
    func send(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], json: String? = nil
    ) async throws -> XCTHTTPResponse {
        var headers = headers
        var body: ByteBuffer?
        if let json {
            headers.contentType = .json
            body = ByteBuffer(string: json)
        }
        return try await send(method, path, headers: headers, body: body)
    }

    /// Sends any body with any headers and returns the response.
    func send(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, body: ByteBuffer?) async throws
        -> XCTHTTPResponse
    {
        var captured: XCTHTTPResponse?
        try await test(method, path, headers: headers, body: body) { response async in captured = response }
        guard let captured else { throw PostgresCluster.Failure(description: "no response for \(method) \(path)") }
        return captured
    }
}

extension XCTHTTPResponse {
    var text: String { body.string }

    /// The body decoded into a LocifyAPI wire type, the way a client (or the future SDK) reads it.
    func decoded<Value: Decodable>(_ type: Value.Type, file: StaticString = #filePath, line: UInt = #line) throws
        -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: Data(body.string.utf8))
        } catch {
            XCTFail("not a \(type): \(body.string)", file: file, line: line)
            throw error
        }
    }

    /// Monica's error code of an error response.
    var errorCode: Int? {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body.string.utf8)))?.error.errorCode
    }

    /// The body parsed as JSON, for key-by-key checks.
    func json(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(body.string.utf8))
        guard let object = value as? [String: Any] else {
            XCTFail("not a JSON object: \(body.string)", file: file, line: line)
            return [:]
        }
        return object
    }
}

/// A browser stand-in for the web pages: keeps cookies and reads the CSRF token from forms.
final class WebClient {
    let app: Application
    private(set) var cookies: [String: String] = [:]
    private(set) var csrfToken: String?
    var extraHeaders: HTTPHeaders = [:]

    init(app: Application) {
        self.app = app
    }

    @discardableResult
    func get(_ path: String) async throws -> XCTHTTPResponse {
        let response = try await send(.GET, path, body: nil)
        if let token = Self.csrfToken(in: response.text) { csrfToken = token }
        return response
    }

    /// Posts a form with the CSRF token of the last page fetched (unless `includeCSRF` is false).
    @discardableResult
    func post(_ path: String, form: [String: String], includeCSRF: Bool = true) async throws -> XCTHTTPResponse {
        try await post(path, fields: form.map { ($0.key, $0.value) }, includeCSRF: includeCSRF)
    }

    /// Posts a form whose fields may repeat (a select of several choices sends one field per choice).
    func post(_ path: String, fields: [(String, String)], includeCSRF: Bool = true) async throws -> XCTHTTPResponse {
        var fields = fields
        if includeCSRF, let csrfToken { fields.append(("_csrf", csrfToken)) }
        let body = fields.map { key, value in
            "\(Self.encode(key))=\(Self.encode(value))"
        }.joined(separator: "&")
        let response = try await send(.POST, path, body: body)
        if let token = Self.csrfToken(in: response.text) { csrfToken = token }
        return response
    }

    /// Uploads a file as the `field` field of a multipart form, with the CSRF token of the last page.
    @discardableResult
    func upload(
        _ path: String, field: String = "file", fileName: String, contentType fileType: String = "text/vcard",
        contents: String
    ) async throws -> XCTHTTPResponse {
        let boundary = "locify-test-boundary"
        let body = """
            --\(boundary)\r
            Content-Disposition: form-data; name="_csrf"\r
            \r
            \(csrfToken ?? "")\r
            --\(boundary)\r
            Content-Disposition: form-data; name="\(field)"; filename="\(fileName)"\r
            Content-Type: \(fileType)\r
            \r
            \(contents)\r
            --\(boundary)--\r

            """
        return try await send(.POST, path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    func send(
        _ method: HTTPMethod, _ path: String, body: String? = nil, contentType: String? = nil
    ) async throws -> XCTHTTPResponse {
        try await send(method, path, bytes: body.map { ByteBuffer(string: $0) }, contentType: contentType)
    }

    /// Sends any bytes (a multipart upload of an image) with the client's cookies.
    func send(
        _ method: HTTPMethod, _ path: String, bytes body: ByteBuffer?, contentType: String?
    ) async throws -> XCTHTTPResponse {
        var headers = extraHeaders
        if !cookies.isEmpty {
            headers.replaceOrAdd(name: .cookie, value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        if body != nil {
            headers.replaceOrAdd(name: .contentType, value: contentType ?? "application/x-www-form-urlencoded")
        }
        var captured: XCTHTTPResponse?
        try await app.test(method, path, headers: headers, body: body) {
            response async in captured = response
        }
        guard let response = captured else { throw PostgresCluster.Failure(description: "no response for \(path)") }
        for header in response.headers[.setCookie] {
            let pair = header.split(separator: ";").first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first else { continue }
            let value = parts.count > 1 ? parts[1] : ""
            if value.isEmpty || header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }

    static func csrfToken(in html: String) -> String? {
        guard let range = html.range(of: #"name="_csrf" value=""#) else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Registers and leaves the client signed in.
    /// Registers (as `register()`) and adds a contact through the web form: its page's path.
    func registerWithContact(firstName: String = "Marie", lastName: String = "Curie") async throws -> String {
        _ = try await register()
        let created = try await post("/contacts", form: ["first_name": firstName, "last_name": lastName])
        return try XCTUnwrap(created.headers.first(name: .location), created.text)
    }

    func register(name: String = "Grace Hopper", email: String = "grace@example.com", password: String = "compilers!")
        async throws -> XCTHTTPResponse
    {
        try await get("/register")
        return try await post("/register", form: ["name": name, "email": email, "password": password])
    }
}

/// A configured application on a new SQLite file of its own, not migrated: for what only a file shows
/// (two connections taking turns with the write lock) and for tests of the migrations themselves.
func withUnmigratedSQLiteFileApp<Result>(_ body: (Application) async throws -> Result) async throws -> Result {
    TestLogging.bootstrapOnce()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locify-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let config = LocifyConfig(
        dataDirectory: directory, storage: .sqlite(path: directory.appendingPathComponent("db.sqlite").path),
        preloadsGazetteer: false, workers: 0)
    return try await Application.make(.testing).shuttingDown { app in
        try await configure(app, config: config, dependencies: .testing(clock: TestClock()))
        return try await body(app)
    }
}
