import Fluent
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class AccountWebTests: XCTestCase {
    func testRegisterSetsAHardenedSessionCookieAndSignsIn() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            let response = try await browser.register()
            XCTAssertEqual(response.status, .seeOther)
            XCTAssertEqual(response.headers.first(name: .location), "/start", "a new account lands on the start page")
            let cookie = try XCTUnwrap(response.headers[.setCookie].first { $0.hasPrefix("locify_session=") })
            XCTAssertTrue(cookie.contains("HttpOnly"))
            XCTAssertTrue(cookie.contains("SameSite=Lax"))
            XCTAssertFalse(cookie.contains("Secure"), "plain HTTP cannot carry a Secure cookie")
            let page = try await browser.get("/contacts")
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(page.text.contains("Welcome to Locify!"))
            XCTAssertTrue(page.text.contains("Grace Hopper"))
            let user = try await unwrapAsync(try await app.firstUser())
            XCTAssertTrue(user.passwordHash.hasPrefix("$2"), "bcrypt digest")
        }
    }

    func testANewAccountStartsInTheBrowsersTimezoneOnAPageOfWaysToBegin() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            let form = try await browser.get("/register")
            // The list the browser's timezone is chosen from (by the page's script; UTC without one).
            XCTAssertTrue(
                form.text.contains(#"<select id="timezone" name="timezone" data-browser-timezone="choose""#),
                form.text)
            XCTAssertTrue(form.text.contains(#"<option value="UTC" selected>UTC</option>"#))
            XCTAssertTrue(form.text.contains("Reminders are told at your time of day in this timezone."))
            let bad = try await browser.post(
                "/register",
                form: [
                    "name": "Grace Hopper", "email": "grace@example.com", "password": "compilers!",
                    "timezone": "Mars/Olympus_Mons",
                ])
            XCTAssertEqual(bad.status, .unprocessableEntity, "\(database)")
            XCTAssertTrue(bad.text.contains("Choose a timezone from the list."), bad.text)
            XCTAssertTrue(
                bad.text.contains(#"data-browser-timezone="offer""#), "once sent, the person's choice is kept")
            let registered = try await browser.post(
                "/register",
                form: [
                    "name": "Grace Hopper", "email": "grace@example.com", "password": "compilers!",
                    "timezone": "America/New_York",
                ])
            XCTAssertEqual(registered.status, .seeOther, registered.text)
            let user = try await app.account(email: "grace@example.com")
            let stored = try await app.accounts.user(withEmail: "grace@example.com")
            XCTAssertEqual(stored?.profile.timezone, "America/New_York", "\(database): account \(user.id)")

            let start = try await browser.get("/start")
            XCTAssertEqual(start.status, .ok)
            XCTAssertTrue(start.text.contains("Welcome, Grace"), start.text)
            for link in [
                #"href="/settings#interchange-heading">Import contacts"#, #"href="/settings/places">Import places"#,
                #"href="/contacts/new">Add a contact"#, #"href="/settings#contacts-app-heading">See how"#,
            ] {
                XCTAssertTrue(start.text.contains(link), link)
            }
            XCTAssertTrue(start.text.contains("Your timezone is America/New York"))
            let settings = try await browser.get("/settings")
            XCTAssertTrue(
                settings.text.contains(#"<select id="timezone" name="timezone" data-browser-timezone="offer""#))
            XCTAssertTrue(settings.text.contains(#"<option value="America/New_York" selected>"#))

            // The empty list says why it is empty, and where to begin when there is nothing yet.
            let empty = try await browser.get("/contacts")
            XCTAssertTrue(empty.text.contains("No contacts yet."), empty.text)
            XCTAssertTrue(empty.text.contains(#"<a href="/start">import them from your phone or another app</a>"#))
            let searched = try await browser.get("/contacts?q=ada")
            XCTAssertTrue(searched.text.contains("No contact matches your search."))
            let archived = try await browser.get("/contacts?archived=1")
            XCTAssertTrue(archived.text.contains("No archived contacts."))
            let anonymous = try await WebClient(app: app).get("/start")
            XCTAssertEqual(anonymous.status, .seeOther, "the start page is the account's")
        }
    }

    func testCookiesAreSecureBehindHTTPSOnlyWhenATrustedProxySaysSo() async throws {
        try await forEachDatabase { app, _, _ in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
            func csrfCookie() throws -> String {
                let answer = try RawHTTP.exchange(
                    port: port,
                    head: "GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\nConnection: close",
                    body: [])
                return try XCTUnwrap(
                    answer.components(separatedBy: "\r\n").first {
                        $0.lowercased().hasPrefix("set-cookie: locify_csrf=")
                    })
            }
            XCTAssertFalse(try csrfCookie().lowercased().contains("; secure"), "anyone may send X-Forwarded-Proto")
            app.locifyConfig.trustedProxies = try TrustedProxies(parsing: "127.0.0.1")
            XCTAssertTrue(try csrfCookie().lowercased().contains("; secure"), "the trusted proxy may")
            await app.server.shutdown()
        }
    }

    func testRegistrationErrorsAppearBesideTheFieldsWithValuesKept() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.get("/register")
            let response = try await browser.post(
                "/register", form: ["name": "Grace", "email": "grace@", "password": "short"])
            XCTAssertEqual(response.status, .unprocessableEntity)
            XCTAssertTrue(
                response.text.contains(
                    #"<p class="error" id="email-error">Email must be an address like name@example.com.</p>"#))
            XCTAssertTrue(
                response.text.contains(
                    #"<p class="error" id="password-error">Password must be at least 8 characters.</p>"#))
            XCTAssertTrue(response.text.contains(#"value="grace@""#), "the typed email is kept")
            XCTAssertTrue(response.text.contains(#"value="Grace""#))
        }
    }

    func testLogInFailsClearlyAndIsThrottled() async throws {
        try await forEachDatabase { app, clock, _ in
            _ = try await app.makeAccount()
            let browser = WebClient(app: app)
            try await browser.get("/login")
            for _ in 1...5 {
                let wrong = try await browser.post(
                    "/login", form: ["email": "ada@example.com", "password": "nope nope"])
                XCTAssertEqual(wrong.status, .unauthorized)
                XCTAssertTrue(wrong.text.contains("Email or password is not correct."))
                XCTAssertTrue(wrong.text.contains(#"value="ada@example.com""#))
            }
            let locked = try await browser.post(
                "/login", form: ["email": "ada@example.com", "password": "correct horse"])
            XCTAssertEqual(locked.status, .tooManyRequests)
            XCTAssertEqual(locked.headers.first(name: .retryAfter), "60")
            XCTAssertTrue(locked.text.contains("Too many failed attempts. Try again in 60 seconds."))

            clock.advance(by: 60)
            let good = try await browser.post(
                "/login", form: ["email": "ada@example.com", "password": "correct horse", "next": "/settings"])
            XCTAssertEqual(good.status, .seeOther)
            XCTAssertEqual(good.headers.first(name: .location), "/settings")

            let logout = try await browser.post("/logout", form: [:])
            XCTAssertEqual(logout.headers.first(name: .location), "/login")
            // The offline app's pages and data leave the device with the session.
            XCTAssertEqual(logout.headers.first(name: "Clear-Site-Data"), #""cache", "storage""#)
            let afterLogout = try await browser.get("/contacts")
            XCTAssertEqual(afterLogout.status, .seeOther)
            XCTAssertEqual(afterLogout.headers.first(name: .location), "/login?next=/contacts")
            let sessions = try await app.count(WebSessionsTable.self)
            XCTAssertEqual(sessions, 0, "log out ends the session on the server too")
        }
    }

    func testLogInNeverRedirectsOffSite() {
        XCTAssertEqual(AuthWebController.safeDestination("//evil.example/x"), "/map")
        XCTAssertEqual(AuthWebController.safeDestination("https://evil.example"), "/map")
        XCTAssertEqual(AuthWebController.safeDestination("/\\evil.example"), "/map")
        XCTAssertEqual(AuthWebController.safeDestination("/contacts/4"), "/contacts/4")
    }

    func testSettingsProfilePasswordAndTokens() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains(#"<option value="Europe/Zurich">Europe/Zurich</option>"#))
            XCTAssertTrue(
                settings.text.contains(#"<option value="UTC" selected>UTC</option>"#), "the stored zone is selected")
            XCTAssertTrue(settings.text.contains("Organic Maps"))

            let badProfile = try await browser.post(
                "/settings/profile",
                form: ["name": "Grace", "email": "grace@example.com", "timezone": "Mars/Olympus", "maps_app": "apple"])
            XCTAssertEqual(badProfile.status, .unprocessableEntity)
            XCTAssertTrue(badProfile.text.contains("Choose a timezone from the list."))
            let profile = try await browser.post(
                "/settings/profile",
                form: [
                    "name": "Grace B. Hopper", "email": "grace@navy.example", "timezone": "Europe/Zurich",
                    "maps_app": "organic",
                ])
            XCTAssertEqual(profile.status, .seeOther)
            let user = try await unwrapAsync(try await app.firstUser()).user
            XCTAssertEqual(user.profile.timezone, "Europe/Zurich")
            XCTAssertEqual(user.profile.mapsApp.rawValue, "organic")
            XCTAssertEqual(user.profile.email, "grace@navy.example")

            try await browser.get("/settings")
            let wrongPassword = try await browser.post(
                "/settings/password",
                form: [
                    "current_password": "nope", "new_password": "new password", "password_confirmation": "new password",
                ])
            XCTAssertEqual(wrongPassword.status, .unprocessableEntity)
            XCTAssertTrue(wrongPassword.text.contains("Current password is not correct."))
            let changed = try await browser.post(
                "/settings/password",
                form: [
                    "current_password": "compilers!", "new_password": "new password",
                    "password_confirmation": "new password",
                ])
            XCTAssertEqual(changed.status, .seeOther)
            let relogin = try await app.accounts.authenticate(email: "grace@navy.example", password: "new password")
            XCTAssertNotNil(relogin)

            try await browser.get("/settings")
            let emptyLabel = try await browser.post("/settings/tokens", form: ["label": " "])
            XCTAssertTrue(emptyLabel.text.contains("Token name is required."))
            let created = try await browser.post("/settings/tokens", form: ["label": "Phone"])
            XCTAssertEqual(created.status, .created)
            let secret = try XCTUnwrap(
                created.text.range(of: #"id="new-token-value" type="text" value=""#).map {
                    range in
                    String(created.text[range.upperBound...].prefix { $0 != "\"" })
                })
            XCTAssertEqual(secret.count, 48)
            let api = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(secret)"])
            XCTAssertEqual(api.status, .ok)
            let later = try await browser.get("/settings")
            XCTAssertFalse(later.text.contains(secret), "the secret is shown once")
            XCTAssertTrue(later.text.contains("Phone"))

            let token = try await unwrapAsync(
                try await app.storedTokens().first { $0.label == "Phone" })
            let revoked = try await browser.post("/settings/tokens/\(token.id)/revoke", form: [:])
            XCTAssertEqual(revoked.status, .seeOther)
            let afterRevoke = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(secret)"])
            XCTAssertEqual(afterRevoke.status, .unauthorized)
        }
    }

    func testClosedRegistrationStillLetsTheFirstUserIn() async throws {
        try await withApp(.sqlite, registration: .closed) { app, _ in
            let first = WebClient(app: app)
            let response = try await first.register()
            XCTAssertEqual(response.status, .seeOther)

            let second = WebClient(app: app)
            let page = try await second.get("/register")
            XCTAssertTrue(page.text.contains("Registration is closed on this server."))
            let refused = try await second.post(
                "/register", form: ["name": "Late", "email": "late@example.com", "password": "password1"])
            XCTAssertEqual(refused.status, .forbidden)
            let users = try await app.count(UsersTable.self)
            XCTAssertEqual(users, 1)
        }
    }
}
