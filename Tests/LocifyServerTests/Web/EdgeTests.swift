import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class EdgeTests: XCTestCase {
    /// The API's only routes that answer without a token, as Monica's do.
    private static let publicAPIPaths: Set<String> = ["/api/compliance", "/api/compliance/1"]

    func testEveryAPIRouteAnswers401JSONWithoutAValidToken() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let routes = app.routes.all.filter { $0.path.first?.description == "api" }
            XCTAssertGreaterThan(routes.count, 4)
            for route in routes {
                let path =
                    "/" + route.path.map { $0.description.hasPrefix(":") ? "1" : $0.description }.joined(separator: "/")
                for headers: HTTPHeaders in [
                    [:], ["Accept": "text/html"], ["Authorization": "Bearer not-a-real-token-but-long-enough"],
                    ["Authorization": "Bearer \(account.token)x"],
                ] {
                    let response = try await app.send(route.method, path, headers: headers)
                    // Monica's compliance terms are public: an app shows them before there is an account.
                    if Self.publicAPIPaths.contains(path) {
                        XCTAssertEqual(response.status, .ok, "\(database) \(route.method) \(path) \(headers)")
                        continue
                    }
                    XCTAssertEqual(response.status, .unauthorized, "\(database) \(route.method) \(path) \(headers)")
                    XCTAssertEqual(response.text, #"{"message":"Unauthenticated."}"#)
                    XCTAssertEqual(response.headers.contentType, .json)
                }
            }
        }
    }

    func testFormsWithoutTheCSRFTokenAreRefusedAndChangeNothing() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.get("/register")
            let forged = try await browser.post(
                "/register", form: ["name": "Mallory", "email": "m@example.com", "password": "password1"],
                includeCSRF: false)
            XCTAssertEqual(forged.status, .forbidden)
            XCTAssertTrue(forged.text.contains("This form has expired"))
            let users = try await app.count(UsersTable.self)
            XCTAssertEqual(users, 0)

            _ = try await browser.register()
            let before = try await app.count(ContactsTable.self)
            let wrongToken = try await browser.post(
                "/contacts", form: ["first_name": "X", "_csrf": "wrong"], includeCSRF: false)
            XCTAssertEqual(wrongToken.status, .forbidden)
            let after = try await app.count(ContactsTable.self)
            XCTAssertEqual(before, after)
        }
    }
}

/// What every response and page holds, whatever the feature: the hardened edge.
final class EdgeHardeningTests: XCTestCase {
    private let securityHeaders = [
        "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Permissions-Policy",
    ]

    func testEveryKindOfResponseCarriesTheSecurityHeaders() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let browser = WebClient(app: app)
            let responses = [
                ("page", try await browser.get("/login")),
                ("api", try await app.send(.GET, "/api/me", headers: account.bearer)),
                ("api error", try await app.send(.GET, "/api/contacts/999", headers: account.bearer)),
                ("file", try await browser.get("/css/locify.css")),
                ("missing page", try await browser.get("/no-such-page")),
                ("health", try await app.send(.GET, "/health")),
            ]
            for (kind, response) in responses {
                for name in securityHeaders {
                    XCTAssertNotNil(response.headers.first(name: name), "\(kind) lacks \(name)")
                }
                let policy = response.headers.first(name: "Content-Security-Policy") ?? ""
                XCTAssertTrue(policy.contains("frame-ancestors 'none'"), kind)
                XCTAssertFalse(policy.contains("unsafe-inline"), kind)
                XCTAssertEqual(response.headers.first(name: "X-Content-Type-Options"), "nosniff")
                XCTAssertEqual(response.headers.first(name: "Referrer-Policy"), "same-origin")
                XCTAssertEqual(response.headers.first(name: "Permissions-Policy")?.contains("geolocation=(self)"), true)
            }
        }
    }

    func testNoPageHasInlineScriptOrStyle() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            var pages = [
                try await browser.get("/register"), try await browser.get("/login"), try await browser.get("/about"),
            ]
            try await browser.register()
            let created = try await browser.post("/contacts", form: ["first_name": "Inline", "last_name": "Check"])
            let contactPath = try XCTUnwrap(created.headers.first(name: .location))
            for path in [
                "/contacts", "/contacts/new", contactPath, contactPath + "/edit", contactPath + "/delete", "/settings",
                "/nope",
            ] {
                pages.append(try await browser.get(path))
            }
            pages.append(try await browser.post("/contacts", form: ["first_name": ""]))
            for page in pages {
                let html = page.text
                XCTAssertFalse(html.contains("style="), "inline style in \(html.prefix(200))")
                XCTAssertFalse(html.contains("<style"), "style element")
                XCTAssertNil(html.range(of: #"<script(?![^>]*\ssrc=)"#, options: .regularExpression), "inline script")
                XCTAssertNil(html.range(of: #"\son[a-z]+=""#, options: .regularExpression), "inline event handler")
            }
        }
    }

    func testEveryBundledPublicFileIsServedAndOtherPathsNeverTouchTheDisk() async throws {
        try await forEachDatabase { app, _, _ in
            let directory = try XCTUnwrap(Bundle.locifyServerResources?.appendingPathComponent("Public"))
            let files = try XCTUnwrap(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
                .map { "/" + $0.path.dropFirst(directory.path.count).drop(while: { $0 == "/" }) }
            XCTAssertEqual(Set(files), StaticFilesMiddleware.paths)
            for path in files {
                let response = try await app.send(.GET, path)
                XCTAssertEqual(response.status, .ok, path)
            }
            let missing = try await app.send(.GET, "/css/other.css")
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testAvatarColourClassesMatchTheCoreColoursAndContrast() async throws {
        try await forEachDatabase { app, _, _ in
            let stylesheet = try await WebClient(app: app).get("/css/locify.css").text
            for (index, colour) in Avatar.defaultColors.enumerated() {
                let rule =
                    ".avatar-color-\(index) { background-color: \(colour); color: \(Avatar.textColor(on: colour)); }"
                XCTAssertTrue(stylesheet.contains(rule), "missing or stale: \(rule)")
            }
        }
    }

    func testAnUnsupportedMethodOnAKnownPathAnswers405WithAllow() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let trace = try await app.send(.TRACE, "/api/me", headers: account.bearer)
            XCTAssertEqual(trace.status, .methodNotAllowed)
            XCTAssertEqual(trace.headers.first(name: "Allow"), "GET, HEAD")
            XCTAssertEqual(trace.text, #"{"error":{"message":"Method Not Allowed","error_code":40}}"#)
            let patch = try await app.send(.PATCH, "/api/contacts/1", headers: account.bearer)
            XCTAssertEqual(patch.status, .methodNotAllowed)
            XCTAssertEqual(
                Set(patch.headers.first(name: "Allow")?.components(separatedBy: ", ") ?? []),
                ["GET", "HEAD", "PUT", "DELETE"])
            let page = try await WebClient(app: app).send(.DELETE, "/login")
            XCTAssertEqual(page.status, .methodNotAllowed)
            XCTAssertTrue(page.text.contains("<h1>Method Not Allowed</h1>"))
            let unknown = try await app.send(.TRACE, "/no-such-path")
            XCTAssertEqual(unknown.status, .notFound, "an unknown path stays a 404")
        }
    }

    func testADoubledSlashReachesTheSameRoute() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            let single = try await app.send(.GET, "/api/me", headers: account.bearer)
            let doubled = try await app.send(.GET, "//api/me", headers: account.bearer)
            XCTAssertEqual(doubled.status, .ok)
            XCTAssertEqual(doubled.text, single.text)
            let inside = try await app.send(.GET, "/api//contacts", headers: account.bearer)
            XCTAssertEqual(inside.status, .ok)
        }
    }

    func testEveryAPIRouteWithAnIdAnswersCode31ForAMissingObject() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let routes = app.routes.all.filter { route in
                route.path.first?.description == "api"
                    && route.path.contains { if case .parameter = $0 { true } else { false } }
            }
            XCTAssertFalse(routes.isEmpty)
            for route in routes {
                let path =
                    "/"
                    + route.path.map { $0.description.hasPrefix(":") ? "987654" : $0.description }.joined(
                        separator: "/")
                let response = try await app.send(route.method, path, headers: account.bearer, json: "{}")
                XCTAssertEqual(response.status, .notFound, "\(database) \(route.method) \(path)")
                XCTAssertEqual(
                    response.text, #"{"error":{"message":"The resource has not been found","error_code":31}}"#)
            }
        }
    }

    func testEveryWebFormRefusesAMissingCSRFToken() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let forms = app.routes.all.filter {
                $0.method == .POST && !["api", "oauth"].contains($0.path.first?.description ?? "")
            }
            XCTAssertGreaterThan(forms.count, 5)
            for route in forms {
                let path =
                    "/" + route.path.map { $0.description.hasPrefix(":") ? "1" : $0.description }.joined(separator: "/")
                let response = try await browser.post(path, form: ["name": "x"], includeCSRF: false)
                XCTAssertEqual(response.status, .forbidden, "POST \(path)")
                XCTAssertTrue(response.text.contains("This form has expired"), "POST \(path)")
            }
        }
    }

    func testALargeUploadIsReadOnlyForASignedInVisitorWhoseFirstFieldIsTheToken() async throws {
        try await forEachDatabase { app, _, _ in
            app.grouped(WebSessionAuthenticator(), CSRFMiddleware()).upload(
                SitePath("upload-probe"), limit: .megabytes(4)
            ) {
                request in "\(request.body.data?.readableBytes ?? 0)"
            }
            let browser = WebClient(app: app)
            try await browser.register()
            let token = try XCTUnwrap(browser.cookies[CookieName.csrf])
            let signedIn = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let file = String(repeating: "0123456789abcdef", count: 96 * 1024)
            func send(csrf: String, cookie: String) async throws -> XCTHTTPResponse {
                var answer: XCTHTTPResponse?
                let headers: HTTPHeaders = [
                    "Content-Type": "multipart/form-data; boundary=\(Self.boundary)", "Cookie": cookie,
                ]
                try await app.testable(method: .running(port: 0)).test(
                    .POST, "/upload-probe", headers: headers,
                    body: ByteBuffer(string: Self.multipart(token: csrf, file: file))
                ) { response async in answer = response }
                return try XCTUnwrap(answer)
            }
            let accepted = try await send(csrf: token, cookie: signedIn)
            XCTAssertEqual(accepted.status, .ok)
            XCTAssertGreaterThan(Int(accepted.body.string) ?? 0, 1_500_000, "the handler reads the whole body")
            let forged = try await send(csrf: "wrong", cookie: signedIn)
            XCTAssertEqual(forged.status, .forbidden)
            let anonymous = try await send(csrf: token, cookie: "\(CookieName.csrf)=\(token)")
            XCTAssertEqual(anonymous.status, .payloadTooLarge, "without a session only the default 1 MB is read")
        }
    }

    func testAnUploadIsRefusedAsSoonAsItsFirstPartOrItsLengthSaysSo() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let token = try XCTUnwrap(browser.cookies[CookieName.csrf])
            let signedIn = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
            // Each body is sent only in part (a chunk, never the last one): an answer means the server
            // decided without waiting for the rest.
            func partial(_ path: String, cookie: String, body: String) throws -> String {
                let chunk = Array(body.utf8)
                return try RawHTTP.exchange(
                    port: port,
                    head: [
                        "POST \(path) HTTP/1.1", "Host: 127.0.0.1", "Cookie: \(cookie)",
                        "Content-Type: multipart/form-data; boundary=\(Self.boundary)", "Transfer-Encoding: chunked",
                    ].joined(separator: "\r\n"),
                    body: Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8))
            }
            let filler = String(repeating: "x", count: 1_200_000)
            let forged = try partial(
                "/settings/import", cookie: signedIn, body: Self.multipart(token: "wrong", file: filler, closed: false))
            XCTAssertTrue(forged.hasPrefix("HTTP/1.1 403"), forged)
            let fileFirst = try partial(
                "/settings/import", cookie: signedIn,
                body: "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.vcf\"\r\n\r\n"
                    + filler)
            XCTAssertTrue(fileFirst.hasPrefix("HTTP/1.1 403"), "the token must come first: \(fileFirst)")
            let anonymous = try partial(
                "/settings/import", cookie: "\(CookieName.csrf)=\(token)",
                body: Self.multipart(token: token, file: filler, closed: false))
            XCTAssertTrue(anonymous.hasPrefix("HTTP/1.1 413"), anonymous)
            XCTAssertTrue(anonymous.contains("larger than the 1 MB"), anonymous)
            let login = try partial(
                "/login", cookie: "\(CookieName.csrf)=\(token)",
                body: Self.multipart(token: token, file: filler, closed: false))
            XCTAssertTrue(login.hasPrefix("HTTP/1.1 413"), login)
            // A declared length over the route's limit is refused before a byte of the body, API routes too.
            for (path, headers) in [
                ("/settings/import", "Cookie: \(signedIn)"), ("/api/places/import", "Authorization: Bearer none"),
                ("/login", "Cookie: \(CookieName.csrf)=\(token)"),
            ] {
                let declared = try RawHTTP.exchange(
                    port: port,
                    head: [
                        "POST \(path) HTTP/1.1", "Host: 127.0.0.1", headers,
                        "Content-Type: multipart/form-data; boundary=\(Self.boundary)",
                        "Content-Length: \(60 * 1024 * 1024)",
                    ].joined(separator: "\r\n"), body: Array("--\(Self.boundary)\r\n".utf8))
                XCTAssertTrue(declared.hasPrefix("HTTP/1.1 413"), "\(path): \(declared)")
            }
            await app.server.shutdown()
        }
    }

    private static let boundary = "locify-boundary"

    /// A form whose first field is the CSRF token, then a file; `closed: false` leaves the file unfinished.
    private static func multipart(token: String, file: String, closed: Bool = true) -> String {
        """
        --\(boundary)\r
        Content-Disposition: form-data; name="_csrf"\r
        \r
        \(token)\r
        --\(boundary)\r
        Content-Disposition: form-data; name="file"; filename="big.vcf"\r
        Content-Type: text/plain\r
        \r
        \(file)
        """ + (closed ? "\r\n--\(boundary)--\r\n" : "")
    }

    func testAWordWhereAnIdGoesIsAnotherRoutesPathOrNothing() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            // PUT /api/reminders/{id} takes "timeline", which is a GET route of its own: 405, as for any
            // method a path does not serve.
            let put = try await app.send(.PUT, "/api/reminders/timeline", headers: account.bearer, json: "{}")
            XCTAssertEqual(put.status, .methodNotAllowed)
            XCTAssertEqual(put.headers.first(name: .allow), "GET, HEAD")
            let word = try await app.send(.PUT, "/api/reminders/soon", headers: account.bearer, json: "{}")
            XCTAssertEqual(word.status, .notFound)
            XCTAssertEqual(word.errorCode, 31)
        }
    }
}

/// Text holding U+0000, which PostgreSQL can neither store nor compare.
final class NULCharacterTests: XCTestCase {
    /// PostgreSQL cannot store or compare text holding U+0000: every input refuses it with a clear error
    /// (or, in a search or a log-in, finds nothing) instead of a server error, on both databases.
    func testTextHoldingNULIsRefusedEverywhereInsteadOfFailing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let refusals: [(String, String, String)] = [
                (
                    "/api/contacts", #"{"first_name": "Ada\u0000"}"#,
                    "First name cannot hold the NUL character (U+0000)."
                ),
                (
                    "/api/notes", #"{"contact_id": \#(ada.id), "body": "\u0000"}"#,
                    "Note cannot hold the NUL character (U+0000)."
                ),
                ("/api/tags", #"{"name": "a\u0000b"}"#, "Tag cannot hold the NUL character (U+0000)."),
                ("/api/contactfieldtypes", #"{"name": "Sky\u0000pe"}"#, "Name cannot hold the NUL character (U+0000)."),
                (
                    "/api/contacts/\(ada.id)/contactfields",
                    #"{"contact_field_type_id": 1, "data": "x", "labels": ["\u0000"]}"#,
                    "Each label cannot hold the NUL character (U+0000)."
                ),
            ]
            for (path, json, message) in refusals {
                let response = try await app.send(.POST, path, headers: account.bearer, json: json)
                XCTAssertEqual(response.status, .unprocessableEntity, "\(database) \(path): \(response.text)")
                XCTAssertTrue(response.text.contains(message), "\(path): \(response.text)")
            }
            let contacts = try await app.count(ContactsTable.self)
            XCTAssertEqual(contacts, 1, "nothing was stored")
            let search = try await app.send(.GET, "/api/contacts?query=Ada%00", headers: account.bearer)
            XCTAssertEqual(search.status, .ok, "\(database): \(search.text)")
            XCTAssertEqual(try search.decoded(PageResource<ContactResource>.self).meta.total, 0)
            let login = try await app.send(
                .POST, "/oauth/login", json: #"{"email": "ada@example.com\u0000", "password": "correct horse"}"#)
            XCTAssertEqual(login.status, .unauthorized, "\(database): \(login.text)")
            let browser = WebClient(app: app)
            _ = try await browser.register(name: "Grace Hopper", email: "grace@example.com")
            try await browser.get("/contacts/new")
            let form = try await browser.post("/contacts", form: ["first_name": "Gr\u{0}ace"])
            XCTAssertEqual(form.status, .unprocessableEntity)
            XCTAssertTrue(form.text.contains("First name cannot hold the NUL character (U+0000)."))
        }
    }
}
