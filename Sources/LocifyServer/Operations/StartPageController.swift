import LocifyCore
import Vapor

/// `GET /start`: where a new account lands after signing up, and where an empty contact list points: the
/// ways to bring in or begin the account's data, each one step away.
struct StartPageController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.start, use: show)
    }

    func show(request: Request) async throws -> View {
        let user = try request.requireUser()
        return try await request.view.render(
            "start", StartPage.Context(profile: user.profile, session: request.pageSession))
    }
}

enum StartPage {
    struct Step: Encodable {
        let id: String
        let title: String
        let text: String
        let url: String
        let action: String
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let firstName: String
        let steps: [Step]
        let timezone: String
        let settingsURL: String
        let mapURL: String

        init(profile: AccountProfile, session: PageSession) {
            layout = LayoutContext(title: "Start here", section: .none, session: session)
            firstName = profile.name.split(separator: " ").first.map(String.init) ?? profile.name
            timezone = profile.timezone.replacingOccurrences(of: "_", with: " ")
            settingsURL = SitePaths.settings.path
            mapURL = SitePaths.map.path
            steps = [
                Step(
                    id: "import-contacts", title: "Bring your contacts",
                    text: "Export them from your phone or your old app as a vCard file (.vcf), and import it here.",
                    url: SitePaths.settings.path + "#interchange-heading", action: "Import contacts"),
                Step(
                    id: "import-places", title: "Bring your saved places",
                    text:
                        "Google Takeout's saved places and lists, GPX, KML (Google My Maps, Organic Maps) or GeoJSON.",
                    url: SitePaths.settingsPlaces.path, action: "Import places"),
                Step(
                    id: "add-contact", title: "Add a first contact",
                    text: "A name is enough; addresses, phone numbers, birthdays and reminders can follow.",
                    url: ContactPaths.new.path, action: "Add a contact"),
                Step(
                    id: "connect-phone", title: "Connect your phone",
                    text:
                        "Your phone's own Contacts and Calendar apps can keep every contact, reminder and birthday, offline too (CardDAV and CalDAV).",
                    url: SitePaths.settings.path + "#contacts-app-heading", action: "See how"),
            ]
        }
    }
}
