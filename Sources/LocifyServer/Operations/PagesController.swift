import Vapor

/// The home redirect (the map, once signed in) and the About page.
struct PagesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.home, use: home)
        routes.get(SitePaths.about, use: about)
    }

    func home(request: Request) async throws -> Response {
        request.redirect(to: request.auth.has(AuthenticatedUser.self) ? SitePaths.map.path : AccountPaths.login.path)
    }

    func about(request: Request) async throws -> View {
        try await request.view.render("about", AboutPage.Context(session: request.pageSession))
    }
}

/// `GET /about`: the version and the credits for the bundled data.
enum AboutPage {
    struct Context: Encodable {
        struct Credit: Encodable {
            let name: String
            let url: String
            let detail: String
        }

        let layout: LayoutContext
        let version: String
        let credits: [Credit]

        init(session: PageSession) {
            layout = LayoutContext(title: "About Locify", section: .about, session: session)
            version = LocifyConfig.version
            credits = [
                .init(
                    name: "GeoNames", url: "https://www.geonames.org/", detail: "Place names and coordinates, CC BY 4.0"
                ),
                .init(
                    name: "Natural Earth", url: "https://www.naturalearthdata.com/",
                    detail: "Country outlines, public domain"),
                .init(
                    name: "OpenStreetMap contributors", url: "https://www.openstreetmap.org/copyright",
                    detail: "Map data, ODbL"),
            ]
        }
    }
}
