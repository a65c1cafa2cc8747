import LocifyCore
import Vapor

/// `GET /start`: where a new account lands after signing up, and where an empty contact list points: the
/// ways to bring in or begin the account's data, each one step away, and sample data to look around with
/// (offered while the account is empty, taken away again in one press).
struct StartPageController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.start, use: show)
        routes.post(OperationPaths.sampleData, use: fillWithSampleData)
        routes.post(OperationPaths.sampleDataRemoval, use: removeSampleData)
    }

    func show(request: Request) async throws -> View {
        let user = try request.requireUser()
        let sample = try await sampleDataOffer(request)
        return try await request.view.render(
            "start", StartPage.Context(profile: user.profile, sampleData: sample, session: request.pageSession))
    }

    /// Fills only an empty account: sample people among a person's own would be hard to tell apart.
    func fillWithSampleData(request: Request) async throws -> Response {
        guard try await sampleDataOffer(request) == .fill else {
            return request.redirect(
                to: SitePaths.start.path + "#sample-data",
                flash: "Sample data is only added to an empty account; this one already has contacts or places.")
        }
        let report = try await request.sampleData().fill()
        return request.redirect(to: SitePaths.map, flash: report.summary + " Remove them from the start page.")
    }

    func removeSampleData(request: Request) async throws -> Response {
        let removed = try await request.sampleData().remove()
        return request.redirect(
            to: SitePaths.start.path + "#sample-data",
            flash: "Removed \(removed.contacts) sample contacts and \(removed.places) sample places.")
    }

    /// What the start page offers: to remove the sample data while any is there, else to fill an empty account.
    private func sampleDataOffer(_ request: Request) async throws -> StartPage.SampleDataOffer? {
        let sampleData = try request.sampleData()
        if try await sampleData.isPresent() { return .remove }
        return try await sampleData.accountIsEmpty() ? .fill : nil
    }
}

enum StartPage {
    enum SampleDataOffer: String, Encodable {
        case fill
        case remove
    }

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
        let sampleData: SampleDataOffer?
        let sampleDataURL: String
        let sampleDataRemovalURL: String

        init(profile: AccountProfile, sampleData: SampleDataOffer?, session: PageSession) {
            layout = LayoutContext(title: "Start here", section: .none, session: session)
            firstName = profile.name.split(separator: " ").first.map(String.init) ?? profile.name
            timezone = profile.timezone.replacingOccurrences(of: "_", with: " ")
            settingsURL = SitePaths.settings.path
            mapURL = SitePaths.map.path
            self.sampleData = sampleData
            sampleDataURL = OperationPaths.sampleData.path
            sampleDataRemovalURL = OperationPaths.sampleDataRemoval.path
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
