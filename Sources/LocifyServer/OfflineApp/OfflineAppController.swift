import Foundation
import LocifyCore
import Vapor

/// What makes the web app an installed app that opens offline: `GET /manifest.webmanifest`, the service
/// worker at `GET /sw.js`, and `GET /offline`, the page the worker shows for a page this device has not
/// saved. All three answer without a session: the worker installs on the log-in page too.
struct OfflineAppController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.webManifest, use: manifest)
        routes.get(SitePaths.serviceWorker, use: serviceWorker)
        routes.get(SitePaths.offline, use: offline)
    }

    func manifest(request: Request) async throws -> Response {
        Self.answer(.init(data: try WebAppManifest.data.get()), type: "application/manifest+json", cache: "no-cache")
    }

    /// The worker's script with this version's shell written in. Browsers compare it byte for byte to
    /// decide whether a new worker installs, so it is never cached on the way (`no-cache`).
    func serviceWorker(request: Request) async throws -> Response {
        Self.answer(.init(string: try ServiceWorkerScript.text.get()), type: "text/javascript", cache: "no-cache")
    }

    /// A body made by this feature, with its type (UTF-8) and how long it may be kept.
    static func answer(_ body: Response.Body, type: String, cache: String) -> Response {
        let response = Response(status: .ok, body: body)
        response.headers.replaceOrAdd(name: .contentType, value: type + "; charset=utf-8")
        response.headers.replaceOrAdd(name: .cacheControl, value: cache)
        return response
    }

    /// Keys sorted and slashes plain: the manifest and the plan read as their documentation shows them.
    static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// The same for everyone (the worker keeps one copy per version): the navigation of a signed-in
    /// person, no name and no log-out form, and places the worker fills in.
    func offline(request: Request) async throws -> View {
        try await request.view.render("offline", OfflinePage.Context())
    }
}

enum OfflinePage {
    struct Context: Encodable {
        let layout = LayoutContext(title: "Offline", session: .offlineShell)
    }
}

/// The web manifest: name, icons at the sizes phones ask for, colours, and a standalone window opening
/// at the home page (which goes to the map once signed in).
struct WebAppManifest: Encodable {
    struct Icon: Encodable {
        let src: String
        let sizes: String
        let type: String
        let purpose: String
    }

    let id = SitePaths.home.path
    let name = "Locify"
    let shortName = "Locify"
    let description = "The people and places in your life, on your own server."
    let startURL = SitePaths.home.path
    let scope = SitePaths.home.path
    let display = "standalone"
    let backgroundColor = "#ffffff"
    let themeColor = LayoutContext.themeColor
    let icons = [
        Icon(src: SitePaths.appIcon192.path, sizes: "192x192", type: "image/png", purpose: "any"),
        Icon(src: SitePaths.appIcon512.path, sizes: "512x512", type: "image/png", purpose: "any"),
        Icon(src: SitePaths.maskableIcon512.path, sizes: "512x512", type: "image/png", purpose: "maskable"),
        Icon(src: SitePaths.appleTouchIcon.path, sizes: "180x180", type: "image/png", purpose: "any"),
        Icon(src: SitePaths.favicon.path, sizes: "any", type: "image/svg+xml", purpose: "any"),
    ]

    enum CodingKeys: String, CodingKey {
        case id, name
        case shortName = "short_name"
        case description
        case startURL = "start_url"
        case scope, display
        case backgroundColor = "background_color"
        case themeColor = "theme_color"
        case icons
    }

    /// The same for the process's whole life: made once.
    static let data: Result<Data, any Error> = Result { try OfflineAppController.json(WebAppManifest()) }
}

/// `Resources/ServiceWorker/sw.js` with this version (and the digest of its files, so a changed file
/// installs a new worker without a new version number), its shell's files (the stylesheet, the scripts,
/// the icons, the manifest; each by the address pages load it with) and the offline page written in.
enum ServiceWorkerScript {
    static let shellFiles: [String] =
        ([SitePaths.stylesheet] + LayoutContext.scripts).map(StaticAssets.versioned)
        + ([SitePaths.favicon, SitePaths.webManifest] + SitePaths.appIcons).map(\.path)

    /// Made once: the bundle does not change while the server runs.
    static let text: Result<String, any Error> = Result {
        guard let url = Bundle.module.url(forResource: "sw", withExtension: "js", subdirectory: "ServiceWorker") else {
            throw Abort(.internalServerError, reason: "sw.js is missing from the bundle")
        }
        let files = String(decoding: try JSONEncoder().encode(shellFiles), as: UTF8.self)
        return try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(
                of: "__LOCIFY_VERSION__", with: LocifyConfig.version + "-" + StaticAssets.shellVersion
            )
            .replacingOccurrences(of: "__LOCIFY_SHELL_FILES__", with: files)
            .replacingOccurrences(of: "__LOCIFY_OFFLINE_PAGE__", with: SitePaths.offline.path)
    }
}

/// `GET /offline/plan.json`: which of the account's pages show which records, for the offline app to
/// keep every page current on the device from what the sync feed says changed (`offline-store.js`).
struct OfflinePlanController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.offlinePlan, use: plan)
    }

    func plan(request: Request) async throws -> Response {
        var types: [String: OfflinePlanResource.PageKind] = [:]
        for kind in request.application.offlinePages {
            var parent: OfflinePlanResource.Parent?
            var everyPageOf: String?
            switch kind.reach {
            case .itself: break
            case .parent(let type, let key): parent = .init(type: type, key: key)
            case .everyPage(let type): everyPageOf = type
            }
            types[kind.type] = .init(
                page: kind.recordPage, forms: kind.forms, parent: parent, everyPageOf: everyPageOf,
                lists: try await kind.lists(request))
        }
        return OfflineAppController.answer(
            .init(
                data: try OfflineAppController.json(
                    OfflinePlanResource(
                        types: types, shared: request.application.offlineSharedFeeds,
                        basemap: .init(tile: MapView.basemapTemplate, zooms: 4)))),
            type: "application/json",
            cache: "no-store")
    }
}

/// The plan as JSON (and the basemap's tiles to keep): for each synced type, its record's page (`{id}` for
/// the id) and forms, the parent whose page
/// shows it, the type whose every page shows it, and the list pages that show it.
struct OfflinePlanResource: Encodable {
    struct Parent: Encodable {
        let type: String
        /// Where the parent's id is in the record's data.
        let key: [String]
    }

    struct PageKind: Encodable {
        let page: String?
        /// The record's forms kept with its page (its edit page).
        let forms: [String]
        let parent: Parent?
        let everyPageOf: String?
        let lists: [String]

        enum CodingKeys: String, CodingKey {
            case page, forms, parent
            case everyPageOf = "every_page_of"
            case lists
        }
    }

    let types: [String: PageKind]
    /// What others share with the account, kept from feeds of their own.
    let shared: OfflineSharedFeeds?
    /// The basemap's tiles the device keeps whatever the account holds: every tile of zooms 0 to `zooms`
    /// (341 tiles, about 1 MB), so a map shows the world's countries and cities offline.
    let basemap: Basemap

    struct Basemap: Encodable {
        /// `{z}`, `{x}` and `{y}` stand for the tile.
        let tile: String
        let zooms: Int
    }
}
