import Crypto
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The parts of the offline web app the server serves: the manifest that makes it installable, the
/// service worker and its shell, the offline page, and the pages' links to them. The browser suite
/// (`Tests/e2e/test_offline.py`) checks the same in Chromium with the server stopped.
final class OfflineAppTests: XCTestCase {
    func testTheManifestNamesIconsThatExistAtTheirSizes() async throws {
        try await forEachDatabase { app, _, _ in
            let response = try await app.send(.GET, "/manifest.webmanifest")
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers.first(name: .contentType), "application/manifest+json; charset=utf-8")
            let manifest = try response.json()
            XCTAssertEqual(manifest["name"] as? String, "Locify")
            XCTAssertEqual(manifest["short_name"] as? String, "Locify")
            XCTAssertEqual(manifest["start_url"] as? String, "/")
            XCTAssertEqual(manifest["scope"] as? String, "/")
            XCTAssertEqual(manifest["display"] as? String, "standalone")
            let stylesheet = try await app.send(.GET, "/css/locify.css").text
            let theme = try XCTUnwrap(manifest["theme_color"] as? String)
            XCTAssertTrue(stylesheet.contains("--accent: \(theme);"), "the theme is the stylesheet's accent")

            let icons = try XCTUnwrap(manifest["icons"] as? [[String: String]])
            var pngSizes: [(Int, String)] = []
            for icon in icons {
                let source = try XCTUnwrap(icon["src"])
                let file = try await app.send(.GET, source)
                XCTAssertEqual(file.status, .ok, source)
                guard icon["type"] == "image/png" else { continue }
                // A PNG's width and height are the IHDR chunk's first two numbers.
                let bytes = Array(file.body.readableBytesView)
                XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], source)
                let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
                let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
                XCTAssertEqual("\(width)x\(height)", icon["sizes"], source)
                pngSizes.append((width, icon["purpose"] ?? "any"))
            }
            // What Android asks for: 192 and 512 pixels, and one it may cut to its own shape.
            XCTAssertTrue(pngSizes.contains { $0 == (192, "any") })
            XCTAssertTrue(pngSizes.contains { $0 == (512, "any") })
            XCTAssertTrue(pngSizes.contains { $0 == (512, "maskable") })
        }
    }

    func testTheWorkersShellIsWhatPagesLoadAndAnswersWithoutASession() async throws {
        try await forEachDatabase { app, _, _ in
            let worker = try await app.send(.GET, "/sw.js")
            XCTAssertEqual(worker.status, .ok)
            XCTAssertEqual(worker.headers.first(name: .contentType), "text/javascript; charset=utf-8")
            XCTAssertEqual(worker.headers.first(name: .cacheControl), "no-cache")
            let script = worker.text
            XCTAssertFalse(script.contains("__LOCIFY_"), "every placeholder is filled in")
            XCTAssertTrue(
                script.contains(#"const VERSION = "\#(LocifyConfig.version)-\#(StaticAssets.shellVersion)";"#))
            let listed = try XCTUnwrap(
                script.firstMatch(of: /const SHELL_FILES = (\[[^\]]*\]);/).map { String($0.1) })
            let shell = try JSONDecoder().decode([String].self, from: Data(listed.utf8))
            XCTAssertTrue(script.contains(#"const OFFLINE_PAGE = "/offline";"#))

            // The worker installs only if every file answers, whoever is (or is not) signed in.
            for path in shell + ["/offline"] {
                let response = try await app.send(.GET, path)
                XCTAssertEqual(response.status, .ok, path)
            }
            // And it keeps the very addresses pages load.
            let page = try await WebClient(app: app).get("/login").text
            let loaded = page.matches(of: /(?:href|src)="(\/(?:css|js)\/[^"]+)"/).map { String($0.1) }
            XCTAssertFalse(loaded.isEmpty)
            XCTAssertEqual(Set(loaded).subtracting(shell), [])
        }
    }

    func testPagesLinkTheManifestAndTheWorkerAndMarkTheWorkersNote() async throws {
        try await forEachDatabase { app, _, _ in
            let visitor = WebClient(app: app)
            let browser = WebClient(app: app)
            try await browser.register()
            let found = try await app.accounts.user(withEmail: "grace@example.com")
            let user = try XCTUnwrap(found)
            for (client, path) in [
                (visitor, "/login"), (browser, "/contacts"), (browser, "/places"), (visitor, "/offline"),
            ] {
                let page = try await client.get(path).text
                XCTAssertTrue(page.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#), path)
                XCTAssertTrue(page.contains(#"<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">"#))
                XCTAssertTrue(page.contains("<main id=\"main\" tabindex=\"-1\">\n    <!--offline-status-->"), path)
                // A signed-in page names whose data the page's script keeps on the device, and the feed.
                let root =
                    client === browser
                    ? #"<html lang="en" data-service-worker="/sw.js" data-account="\#(user.uuid.uuidString.lowercased())" data-sync-url="/api/sync" data-offline-plan-url="/offline/plan.json" data-health-url="/health/live">"#
                    : #"<html lang="en" data-service-worker="/sw.js">"#
                XCTAssertTrue(page.contains(root), path)
                XCTAssertEqual(page.contains(#"id="offline-sync""#), client === browser, path)
            }
            // The offline page is the same for everyone: a signed-in person's navigation, no name, no form.
            let offline = try await WebClient(app: app).get("/offline").text
            XCTAssertTrue(offline.contains("<!--saved-pages-->"))
            XCTAssertTrue(offline.contains(#"href="/contacts""#))
            XCTAssertFalse(offline.contains("form class=\"logout\""))
        }
    }

    func testAFilesAddressChangesWithItsContent() throws {
        let directory = try XCTUnwrap(Bundle.locifyServerResources?.appendingPathComponent("Public"))
        let stylesheet = try Data(contentsOf: directory.appendingPathComponent("css/locify.css"))
        let digest = SHA256.hash(data: stylesheet).map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(StaticAssets.versioned(SitePaths.stylesheet), "/css/locify.css?v=" + digest.prefix(12))
        for script in LayoutContext.scripts {
            XCTAssertTrue(StaticAssets.versioned(script).hasPrefix(script.path + "?v="), script.path)
        }
    }

    func testThePlanSaysWhichPagesShowEachSyncedRecord() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            var contacts: [Contact] = []
            for index in 1...16 {
                contacts.append(try await app.makeContact(for: account, ContactDraft(firstName: "Person \(index)")))
            }
            let address = try await app.send(
                .POST, "/api/contacts/\(contacts[0].id)/addresses", headers: account.bearer,
                json: #"{"name": "Home", "city": "Lyon", "country": "FR"}"#)
            XCTAssertEqual(address.status, .created)
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let place = try await app.send(
                .POST, "/api/places", headers: account.bearer,
                json: #"{"name": "Café", "latitude": 45.767, "longitude": 4.834, "category_id": \#(categories[0].id)}"#)
            XCTAssertEqual(place.status, .created, place.text)
            let placeID = try XCTUnwrap(try place.json()["data"] as? [String: Any])["id"] as? Int

            let answer = try await browser.get("/offline/plan.json")
            XCTAssertEqual(answer.status, .ok)
            XCTAssertEqual(answer.headers.first(name: .cacheControl), "no-store")
            let types = try XCTUnwrap(try answer.json()["types"] as? [String: [String: Any]])
            // Every type the sync feed carries is placed somewhere.
            XCTAssertEqual(Set(types.keys), Set(app.syncedTypes.map(\.name)))

            let contact = try XCTUnwrap(types["contact"])
            XCTAssertEqual(contact["page"] as? String, "/contacts/{id}")
            let contactLists = try XCTUnwrap(contact["lists"] as? [String])
            XCTAssertEqual(
                contactLists,
                [
                    "/contacts", "/contacts?page=2", "/contacts?archived=1", "/contacts/new", "/map", "/reminders",
                    "/tasks",
                ])
            let reminderForm = "/reminders/new?contact={id}&return_to=/contacts/{id}"
            XCTAssertEqual(
                contact["forms"] as? [String], ["/contacts/{id}/edit", "/contacts/{id}/addresses/new", reminderForm])
            XCTAssertEqual(types["reminder"]?["forms"] as? [String], ["/reminders/{id}/edit"])
            XCTAssertEqual(types["address"]?["forms"] as? [String], ["/contacts/{parent}/addresses/{id}/edit"])
            // The contact's page links to its new reminder form at the very address the device keeps it under.
            let newReminder = reminderForm.replacingOccurrences(of: "{id}", with: String(contacts[0].id))
            let contactPage = try await browser.get("/contacts/\(contacts[0].id)").text
            XCTAssertTrue(
                contactPage.contains(#"href="\#(newReminder.replacingOccurrences(of: "&", with: "&amp;"))""#),
                "the page's link and the kept form's address differ")
            XCTAssertEqual(types["place"]?["page"] as? String, "/places/{id}")
            XCTAssertEqual(types["place"]?["forms"] as? [String], ["/places/{id}/edit"])
            XCTAssertTrue((types["place"]?["lists"] as? [String] ?? []).contains("/places/new"))
            XCTAssertEqual(types["category"]?["every_page_of"] as? String, "place")
            XCTAssertEqual(types["tag"]?["every_page_of"] as? String, "contact")
            let basemap = try XCTUnwrap(try answer.json()["basemap"] as? [String: Any])
            XCTAssertEqual(basemap["zooms"] as? Int, 4)
            let tile = try XCTUnwrap(basemap["tile"] as? String)
            let drawn = try await browser.get(
                tile.replacingOccurrences(of: "{z}", with: "4").replacingOccurrences(of: "{x}", with: "8")
                    .replacingOccurrences(of: "{y}", with: "5"))
            XCTAssertEqual(drawn.status, .ok, "the plan's tile address draws a tile")

            // A child names where its parent's id is in its own data, as the feed sends it.
            let parent = try XCTUnwrap(types["address"]?["parent"] as? [String: Any])
            XCTAssertEqual(parent["type"] as? String, "contact")
            let key = try XCTUnwrap(parent["key"] as? [String])
            let pulled = try await app.send(.GET, "/api/sync?types=address", headers: account.bearer).json()
            let data = try XCTUnwrap((pulled["changes"] as? [[String: Any]])?.first?["data"] as? [String: Any])
            let parentID = key.dropLast().reduce(data as Any?) { ($0 as? [String: Any])?[$1] }
                .flatMap { ($0 as? [String: Any])?[key.last ?? ""] as? Int }
            XCTAssertEqual(parentID, contacts[0].id)

            // Every page the plan names is a page of the account.
            var pages = Set(types.values.flatMap { $0["lists"] as? [String] ?? [] })
            pages.insert("/contacts/\(contacts[0].id)")
            pages.insert("/contacts/\(contacts[0].id)/edit")
            pages.insert(newReminder)
            pages.insert("/contacts/\(contacts[0].id)/addresses/new")
            let addressID = try XCTUnwrap(try address.json()["data"] as? [String: Any])["id"] as? Int
            pages.insert("/contacts/\(contacts[0].id)/addresses/\(try XCTUnwrap(addressID))/edit")
            pages.insert("/places/\(try XCTUnwrap(placeID))")
            pages.insert("/places/\(try XCTUnwrap(placeID))/edit")
            for page in pages {
                let response = try await browser.get(page)
                XCTAssertEqual(response.status, .ok, page)
            }
            XCTAssertTrue(pages.contains { $0.hasPrefix("/places/categories/") }, "each category's list")

            // Only for the signed-in.
            let anonymous = try await WebClient(app: app).get("/offline/plan.json")
            XCTAssertEqual(anonymous.status, .seeOther)
        }
    }

    func testEveryFieldOfAFormThatWorksOfflineIsOneThePushTakes() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let address =
                try await app.send(
                    .POST, "/api/contacts/\(contact.id)/addresses", headers: account.bearer,
                    json: #"{"name": "Home", "city": "Lyon", "country": "FR"}"#
                ).json()["data"] as? [String: Any]
            let addressID = try XCTUnwrap(address?["id"] as? Int)
            let reminder =
                try await app.send(
                    .POST, "/api/reminders", headers: account.bearer,
                    json:
                        #"{"title": "Call", "initial_date": "2027-01-05", "frequency_type": "one_time", "contact_id": \#(contact.id)}"#
                ).json()["data"] as? [String: Any]
            let reminderID = try XCTUnwrap(reminder?["id"] as? Int)
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            let place =
                try await app.send(
                    .POST, "/api/places", headers: account.bearer,
                    json:
                        #"{"name": "Café", "latitude": 45.767, "longitude": 4.834, "category_id": \#(categories[0].id)}"#
                ).json()["data"] as? [String: Any]
            let placeID = try XCTUnwrap(place?["id"] as? Int)

            // Each form the offline app can keep, and the change it makes.
            let expected: [(page: String, type: String, op: String, id: Int?)] = [
                ("/contacts/new", "contact", "create", nil),
                ("/contacts/\(contact.id)/edit", "contact", "update", contact.id),
                ("/contacts/\(contact.id)", "contact", "delete", contact.id),
                ("/contacts/\(contact.id)", "address", "delete", addressID),
                ("/contacts/\(contact.id)/addresses/new", "address", "create", nil),
                ("/contacts/\(contact.id)/addresses/\(addressID)/edit", "address", "update", addressID),
                ("/reminders/new?contact=\(contact.id)", "reminder", "create", nil),
                ("/reminders/\(reminderID)/edit", "reminder", "update", reminderID),
                ("/reminders/\(reminderID)/delete", "reminder", "delete", reminderID),
                ("/places/new", "place", "create", nil),
                ("/places/\(placeID)/edit", "place", "update", placeID),
                ("/places/\(placeID)", "place", "update", placeID),
                ("/places/\(placeID)", "place", "delete", placeID),
                ("/places", "category", "create", nil),
                ("/places", "category", "update", categories[0].id),
            ]
            for (page, type, op, id) in expected {
                let html = try await browser.get(page).text
                let forms = Self.offlineForms(in: html)
                let form = try XCTUnwrap(
                    forms.first {
                        $0.attributes["data-sync-type"] == type && $0.attributes["data-sync-op"] == op
                            && $0.attributes["data-sync-id"] == id.map(String.init)
                    }, "\(page): no \(op) of \(type) \(id.map(String.init) ?? "")")
                // What the form sends that the push would not take would be lost offline without a word.
                let pushFields = Set((form.attributes["data-sync-fields"] ?? "").split(separator: " ").map(String.init))
                let companion = try form.attributes["data-sync-companion"].map {
                    try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
                }
                let formOnly: Set<String> = ["_csrf", "return_to", companion??["control"] ?? "_csrf"]
                let lost = form.controls.subtracting(pushFields).subtracting(formOnly)
                XCTAssertEqual(lost, [], "\(page): \(type) \(op)")
                if op != "delete", form.attributes["data-sync-fixed"] == nil {
                    XCTAssertFalse(form.controls.intersection(pushFields).isEmpty, "\(page): the form's own fields")
                }
                XCTAssertEqual(form.attributes["data-sync-then"].map { $0.hasPrefix("/") }, true, page)
                XCTAssertFalse((form.attributes["data-sync-summary"] ?? "").isEmpty, page)
            }
            let placePage = try await browser.get("/places/\(placeID)").text
            let favorite = try XCTUnwrap(
                Self.offlineForms(in: placePage).first { $0.attributes["data-sync-op"] == "update" })
            XCTAssertEqual(favorite.attributes["data-sync-fixed"], #"{"is_favorite":true}"#)
        }
    }

    /// A list offline search works on keeps its list element even when empty: the device's search puts
    /// the rows it finds there.
    func testListsSearchedOfflineMarkTheirRowsAndSummary() async throws {
        try await forEachDatabase { app, _, _ in
            let browser = WebClient(app: app)
            try await browser.register()
            let account = try await app.apiAccount(email: "grace@example.com")
            _ = try await app.makeContact(for: account, ContactDraft(firstName: "Zoë"))
            let categories = try await app.send(.GET, "/api/categories", headers: account.bearer)
                .decoded(PlaceCategoryListResource.self).data
            for (page, kind, rows) in [
                ("/contacts?q=zoe", "contact", 1), ("/contacts?q=nobody", "contact", 0),
                ("/places/categories/\(categories[0].id)", "place", 0),
            ] {
                let html = try await browser.get(page).text
                XCTAssertTrue(html.contains(#"data-offline-search="\#(kind)""#), page)
                XCTAssertTrue(html.contains("data-offline-summary>"), page)
                XCTAssertEqual(html.contains("data-offline-empty"), rows == 0, page)
                XCTAssertEqual(html.contains(#"data-offline-search="\#(kind)" hidden"#), rows == 0, page)
            }
            // A place made offline heads the list of the category it is made in, and the favorites' if a favorite.
            let category = try await browser.get("/places/categories/\(categories[0].id)").text
            XCTAssertTrue(category.contains(#"data-offline-holds="category_id=\#(categories[0].id)""#))
            let favorites = try await browser.get("/places/favorites").text
            XCTAssertTrue(favorites.contains(#"data-offline-holds="is_favorite=true""#))
        }
    }

    /// The forms of a page marked for the offline app: their attributes (entities decoded) and the names
    /// of the controls they send (buttons aside: a button's value is the form's fixed fields).
    static func offlineForms(in html: String) -> [(attributes: [String: String], controls: Set<String>)] {
        let formPattern = /<form ([^>]*data-sync-type[^>]*)>(.*?)<\/form>/.dotMatchesNewlines()
        let attributePattern = /([a-z-]+)="([^"]*)"/
        let controlPattern = /<(input|select|textarea)\b[^>]*\bname="([^"]+)"/
        return html.matches(of: formPattern).map { form in
            var attributes: [String: String] = [:]
            for attribute in form.output.1.matches(of: attributePattern) {
                attributes[String(attribute.output.1)] = String(attribute.output.2)
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
            }
            let controls = Set(form.output.2.matches(of: controlPattern).map { String($0.output.2) })
            return (attributes, controls)
        }
    }
}
