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
                    ? #"<html lang="en" data-service-worker="/sw.js" data-account="\#(user.uuid.uuidString.lowercased())" data-sync-url="/api/sync" data-offline-plan-url="/offline/plan.json">"#
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
                contactLists, ["/contacts", "/contacts?page=2", "/contacts?archived=1", "/map", "/reminders", "/tasks"])
            XCTAssertEqual(types["place"]?["page"] as? String, "/places/{id}")
            XCTAssertEqual(types["category"]?["every_page_of"] as? String, "place")
            XCTAssertEqual(types["tag"]?["every_page_of"] as? String, "contact")

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
            pages.insert("/places/\(try XCTUnwrap(placeID))")
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
}
