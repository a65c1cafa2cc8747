import Fluent
import LocifyCore
import XCTVapor
@testable import LocifyServer

final class WebAppTests: XCTestCase {
    func testRegisterSetsAHardenedSessionCookieAndSignsIn() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            let response = try await browser.register()
            XCTAssertEqual(response.status, .seeOther)
            XCTAssertEqual(response.headers.first(name: .location), "/contacts")
            let cookie = try XCTUnwrap(response.headers[.setCookie].first { $0.hasPrefix("locify_session=") })
            XCTAssertTrue(cookie.contains("HttpOnly"))
            XCTAssertTrue(cookie.contains("SameSite=Lax"))
            XCTAssertFalse(cookie.contains("Secure"), "plain HTTP cannot carry a Secure cookie")
            let page = try await browser.get("/contacts")
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(page.text.contains("Welcome to Locify!"))
            XCTAssertTrue(page.text.contains("Grace Hopper"))
            let user = try await XCTUnwrapAsync(try await UserModel.query(on: app.db).first())
            XCTAssertTrue(user.passwordHash.hasPrefix("$2"), "bcrypt digest")
        }
    }

    func testCookiesAreSecureBehindHTTPS() async throws {
        try await withApp(.sqlite) { app, _ in
            let browser = WebClient(app: app)
            browser.extraHeaders = ["X-Forwarded-Proto": "https"]
            let response = try await browser.register()
            let cookie = try XCTUnwrap(response.headers[.setCookie].first { $0.hasPrefix("locify_session=") })
            XCTAssertTrue(cookie.contains("Secure"))
        }
    }

    func testFormsWithoutTheCSRFTokenAreRefusedAndChangeNothing() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.get("/register")
            let forged = try await browser.post(
                "/register", form: ["name": "Mallory", "email": "m@example.com", "password": "password1"], includeCSRF: false)
            XCTAssertEqual(forged.status, .forbidden)
            XCTAssertTrue(forged.text.contains("This form has expired"))
            let users = try await UserModel.query(on: app.db).count()
            XCTAssertEqual(users, 0)

            _ = try await browser.register()
            let before = try await ContactModel.query(on: app.db).count()
            let wrongToken = try await browser.post("/contacts", form: ["first_name": "X", "_csrf": "wrong"], includeCSRF: false)
            XCTAssertEqual(wrongToken.status, .forbidden)
            let after = try await ContactModel.query(on: app.db).count()
            XCTAssertEqual(before, after)
        }
    }

    func testRegistrationErrorsAppearBesideTheFieldsWithValuesKept() async throws {
        try await withApp(.sqlite) { app, _ in
            let browser = WebClient(app: app)
            try await browser.get("/register")
            let response = try await browser.post("/register", form: ["name": "Grace", "email": "grace@", "password": "short"])
            XCTAssertEqual(response.status, .unprocessableEntity)
            XCTAssertTrue(response.text.contains(#"<p class="error" id="email-error">Email must be an address like name@example.com.</p>"#))
            XCTAssertTrue(response.text.contains(#"<p class="error" id="password-error">Password must be at least 8 characters.</p>"#))
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
                let wrong = try await browser.post("/login", form: ["email": "ada@example.com", "password": "nope nope"])
                XCTAssertEqual(wrong.status, .unauthorized)
                XCTAssertTrue(wrong.text.contains("Email or password is not correct."))
                XCTAssertTrue(wrong.text.contains(#"value="ada@example.com""#))
            }
            let locked = try await browser.post("/login", form: ["email": "ada@example.com", "password": "correct horse"])
            XCTAssertEqual(locked.status, .tooManyRequests)
            XCTAssertEqual(locked.headers.first(name: .retryAfter), "60")
            XCTAssertTrue(locked.text.contains("Too many failed attempts. Try again in 60 seconds."))

            clock.advance(by: 60)
            let good = try await browser.post("/login", form: ["email": "ada@example.com", "password": "correct horse", "next": "/settings"])
            XCTAssertEqual(good.status, .seeOther)
            XCTAssertEqual(good.headers.first(name: .location), "/settings")

            let logout = try await browser.post("/logout", form: [:])
            XCTAssertEqual(logout.headers.first(name: .location), "/login")
            let afterLogout = try await browser.get("/contacts")
            XCTAssertEqual(afterLogout.status, .seeOther)
            XCTAssertEqual(afterLogout.headers.first(name: .location), "/login?next=/contacts")
            let sessions = try await WebSessionModel.query(on: app.db).count()
            XCTAssertEqual(sessions, 0, "log out ends the session on the server too")
        }
    }

    func testLogInNeverRedirectsOffSite() {
        XCTAssertEqual(AuthWebController.safeDestination("//evil.example/x"), "/contacts")
        XCTAssertEqual(AuthWebController.safeDestination("https://evil.example"), "/contacts")
        XCTAssertEqual(AuthWebController.safeDestination("/\\evil.example"), "/contacts")
        XCTAssertEqual(AuthWebController.safeDestination("/contacts/4"), "/contacts/4")
    }

    func testContactLifecycleInTheBrowser() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            try await browser.get("/contacts/new")

            let invalid = try await browser.post("/contacts", form: ["first_name": "", "last_name": "Curie", "birthdate_day": "x", "birthdate_month": "11"])
            XCTAssertEqual(invalid.status, .unprocessableEntity)
            XCTAssertTrue(invalid.text.contains("First name is required."))
            XCTAssertTrue(invalid.text.contains("Birthday day must be a whole number."))
            XCTAssertTrue(invalid.text.contains(#"value="Curie""#))
            XCTAssertTrue(invalid.text.contains(#"<option value="11" selected>November</option>"#))

            let created = try await browser.post("/contacts", form: [
                "first_name": "Marie", "last_name": "Curie", "email": "marie@example.fr", "birthdate_day": "7",
                "birthdate_month": "11", "birthdate_year": "1867", "gender_id": "2", "is_starred": "on", "description": "Two Nobel prizes",
            ])
            XCTAssertEqual(created.status, .seeOther, "\(database): \(created.text)")
            let location = try XCTUnwrap(created.headers.first(name: .location))
            let detail = try await browser.get(location)
            XCTAssertTrue(detail.text.contains("Marie Curie was added."))
            XCTAssertTrue(detail.text.contains("7 November 1867 (156 years old)"))
            XCTAssertTrue(detail.text.contains("Two Nobel prizes"))

            _ = try await app.makeAccount()
            for name in ["Zed", "Albert"] {
                try await browser.get("/contacts/new")
                try await browser.post("/contacts", form: ["first_name": name])
            }
            let list = try await browser.get("/contacts")
            let marie = try XCTUnwrap(list.text.range(of: #"class="contact-name">Marie Curie"#))
            let albert = try XCTUnwrap(list.text.range(of: #"class="contact-name">Albert"#))
            let zed = try XCTUnwrap(list.text.range(of: #"class="contact-name">Zed"#))
            XCTAssertLessThan(marie.lowerBound, albert.lowerBound, "starred first")
            XCTAssertLessThan(albert.lowerBound, zed.lowerBound, "then by name")
            XCTAssertTrue(list.text.contains("3 contacts"))

            let search = try await browser.get("/contacts?q=CURIE")
            XCTAssertTrue(search.text.contains("1 contact matching “CURIE”"))
            XCTAssertFalse(search.text.contains("Albert"))

            let edit = try await browser.get(location + "/edit")
            XCTAssertTrue(edit.text.contains(#"value="marie@example.fr""#))
            let saved = try await browser.post(location + "/edit", form: [
                "first_name": "Marie", "last_name": "Skłodowska-Curie", "birthdate_day": "7", "birthdate_month": "11", "birthdate_year": "1867",
            ])
            XCTAssertEqual(saved.status, .seeOther)
            let afterEdit = try await browser.get(location)
            XCTAssertTrue(afterEdit.text.contains("Marie Skłodowska-Curie"))
            XCTAssertFalse(afterEdit.text.contains("Two Nobel prizes"), "the form sends every field; an emptied one is cleared")

            let confirm = try await browser.get(location + "/delete")
            XCTAssertTrue(confirm.text.contains("Delete Marie Skłodowska-Curie?"))
            let deleted = try await browser.post(location + "/delete", form: [:])
            XCTAssertEqual(deleted.headers.first(name: .location), "/contacts")
            let missing = try await browser.get(location)
            XCTAssertEqual(missing.status, .notFound)
            let count = try await ContactModel.query(on: app.db).count()
            XCTAssertEqual(count, 2)
        }
    }

    func testSettingsProfilePasswordAndTokens() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains(#"<option value="Europe/Zurich">Europe/Zurich</option>"#))
            XCTAssertTrue(settings.text.contains(#"<option value="UTC" selected>UTC</option>"#), "the stored zone is selected")
            XCTAssertTrue(settings.text.contains("Organic Maps"))

            let badProfile = try await browser.post("/settings/profile", form: ["name": "Grace", "email": "grace@example.com", "timezone": "Mars/Olympus", "maps_app": "apple"])
            XCTAssertEqual(badProfile.status, .unprocessableEntity)
            XCTAssertTrue(badProfile.text.contains("Choose a timezone from the list."))
            let profile = try await browser.post("/settings/profile", form: ["name": "Grace B. Hopper", "email": "grace@navy.example", "timezone": "Europe/Zurich", "maps_app": "organic"])
            XCTAssertEqual(profile.status, .seeOther)
            let user = try await XCTUnwrapAsync(try await UserModel.query(on: app.db).first())
            XCTAssertEqual(user.timezone, "Europe/Zurich")
            XCTAssertEqual(user.mapsApp, "organic")
            XCTAssertEqual(user.email, "grace@navy.example")

            try await browser.get("/settings")
            let wrongPassword = try await browser.post("/settings/password", form: ["current_password": "nope", "new_password": "new password", "password_confirmation": "new password"])
            XCTAssertEqual(wrongPassword.status, .unprocessableEntity)
            XCTAssertTrue(wrongPassword.text.contains("Current password is not correct."))
            let changed = try await browser.post("/settings/password", form: ["current_password": "compilers!", "new_password": "new password", "password_confirmation": "new password"])
            XCTAssertEqual(changed.status, .seeOther)
            let relogin = try await app.accounts.authenticate(email: "grace@navy.example", password: "new password")
            XCTAssertNotNil(relogin)

            try await browser.get("/settings")
            let emptyLabel = try await browser.post("/settings/tokens", form: ["label": " "])
            XCTAssertTrue(emptyLabel.text.contains("Token name is required."))
            let created = try await browser.post("/settings/tokens", form: ["label": "Phone"])
            XCTAssertEqual(created.status, .created)
            let secret = try XCTUnwrap(created.text.range(of: #"id="new-token-value" class="token-value" type="text" readonly value=""#).map { range in
                String(created.text[range.upperBound...].prefix { $0 != "\"" })
            })
            XCTAssertEqual(secret.count, 48)
            let api = try await app.send(.GET, "/api/me", headers: ["Authorization": "Bearer \(secret)"])
            XCTAssertEqual(api.status, .ok)
            let later = try await browser.get("/settings")
            XCTAssertFalse(later.text.contains(secret), "the secret is shown once")
            XCTAssertTrue(later.text.contains("Phone"))

            let token = try await XCTUnwrapAsync(try await APITokenModel.query(on: app.db).filter(\.$label == "Phone").first())
            let revoked = try await browser.post("/settings/tokens/\(try token.requireID())/revoke", form: [:])
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
            let refused = try await second.post("/register", form: ["name": "Late", "email": "late@example.com", "password": "password1"])
            XCTAssertEqual(refused.status, .forbidden)
            let users = try await UserModel.query(on: app.db).count()
            XCTAssertEqual(users, 1)
        }
    }

    func testPagesForVisitorsAndErrors() async throws {
        try await withApp(.sqlite) { app, _ in
            let browser = WebClient(app: app)
            let about = try await browser.get("/about")
            XCTAssertTrue(about.text.contains("GeoNames"))
            XCTAssertTrue(about.text.contains("Natural Earth"))
            XCTAssertTrue(about.text.contains("OpenStreetMap contributors"))
            XCTAssertTrue(about.text.contains(LocifyConfig.version))
            let home = try await browser.get("/")
            XCTAssertEqual(home.headers.first(name: .location), "/login")
            let missing = try await browser.get("/no-such-page")
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertTrue(missing.text.contains("<h1>Not Found</h1>"))
            let stylesheet = try await browser.get("/css/locify.css")
            XCTAssertEqual(stylesheet.status, .ok)
            XCTAssertTrue(stylesheet.text.contains("prefers-color-scheme: dark"))
        }
    }

    func testUnknownPathKeepsTheSignedInNavigation() async throws {
        try await withApp(.sqlite) { app, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let missing = try await browser.get("/no-such-page")
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertTrue(missing.text.contains(#"<a href="/settings">Settings</a>"#), missing.text)
            XCTAssertTrue(missing.text.contains("Grace Hopper"))
            // The log-out form on that page carries a token the CSRF check accepts.
            let logout = try await browser.post("/logout", form: [:])
            XCTAssertEqual(logout.status, .seeOther)
            let afterLogout = try await browser.get("/contacts")
            XCTAssertEqual(afterLogout.headers.first(name: .location), "/login?next=/contacts")
        }
    }

    func testContactListPaginatesAndHidesOtherAccounts() async throws {
        try await forEachDatabase { app, _, _ in
            let other = try await app.makeAccount(email: "other@example.com", name: "Other")
            let foreign = try await app.send(.POST, "/api/contacts", headers: other.bearer, json: #"{"first_name":"Foreign"}"#)
            let foreignID = try XCTUnwrap((try foreign.json()["data"] as? [String: Any])?["id"] as? Int)

            let browser = WebClient(app: app)
            _ = try await browser.register()
            let user = try await XCTUnwrapAsync(try await UserModel.query(on: app.db).filter(\.$email == "grace@example.com").first())
            let (_, token) = try await app.accounts.createToken(for: try user.requireID(), label: "bulk")
            for number in 1...21 {
                let name = String(format: "Person %02d", number)
                _ = try await app.send(.POST, "/api/contacts", headers: ["Authorization": "Bearer \(token)"], json: #"{"first_name":"\#(name)"}"#)
            }
            let first = try await browser.get("/contacts")
            XCTAssertTrue(first.text.contains("21 contacts"))
            XCTAssertTrue(first.text.contains("Page 1 of 2"))
            XCTAssertTrue(first.text.contains(#"<a href="/contacts?page=2" rel="next">"#))
            XCTAssertFalse(first.text.contains("Person 21"))
            let second = try await browser.get("/contacts?page=2")
            XCTAssertTrue(second.text.contains("Person 21"))
            XCTAssertTrue(second.text.contains(#"rel="prev""#))
            XCTAssertFalse(first.text.contains("Foreign") || second.text.contains("Foreign"))

            let stranger = try await browser.get("/contacts/\(foreignID)")
            XCTAssertEqual(stranger.status, .notFound)
            try await browser.get("/contacts")
            let deleteAttempt = try await browser.post("/contacts/\(foreignID)/delete", form: [:])
            XCTAssertEqual(deleteAttempt.status, .notFound)
            let stillThere = try await ContactModel.find(foreignID, on: app.db)
            XCTAssertNotNil(stillThere)
        }
    }
}
