import LocifyCore
import Vapor

/// What every page's layout needs from the visit: the signed-in name, the CSRF token for forms and
/// the one-time flash message. Read from the request once; everything else in a page is built from it.
struct PageSession: Sendable {
    var userName: String?
    var csrfToken: String
    var flash: String?
    var counts = NavigationCounts()
    /// The offline app's own pages, kept on the device for whoever signs in there: the navigation of a
    /// signed-in person, without a name or a log-out form.
    var isOfflineShell = false
    /// Whose data the page's script keeps on the device (the sync feed's account).
    var accountUUID: UUID? = nil

    static let signedOut = PageSession(userName: nil, csrfToken: "", flash: nil)
    static let offlineShell = PageSession(userName: nil, csrfToken: "", flash: nil, isOfflineShell: true)
}

extension Request {
    var pageSession: PageSession {
        let user = auth.get(AuthenticatedUser.self)
        return PageSession(
            userName: user?.profile.name, csrfToken: csrfToken, flash: flashMessage,
            counts: storage[NavigationCountsKey.self] ?? NavigationCounts(), accountUUID: user?.uuid)
    }
}

/// What the page layout needs: title, navigation, the signed-in user and the CSRF token for forms.
struct LayoutContext: Encodable {
    struct NavigationLink: Encodable {
        let label: String
        let url: String
        /// A short code for the tab bar's icon (`contacts`, `settings`…), used as a CSS class.
        let icon: String
        let isCurrent: Bool
        /// A number beside the label (due today, unread), with its meaning for screen readers.
        var badge: Int? = nil
        var badgeDescription: String? = nil
        /// The tab bar's narrower label, where the full one would not fit a phone.
        var shortLabel: String? = nil
    }

    enum Section {
        case contacts, map, places, reminders, notifications, settings, about, none
    }

    let title: String
    let userName: String?
    let csrfToken: String
    let flash: String?
    let navigation: [NavigationLink]
    let homeURL: String
    let aboutURL: String
    let logoutURL: String
    /// Where the page's script asks for new notifications to show from the browser.
    let latestNotificationsURL: String
    let stylesheetURL: String
    /// The page's scripts, in the order they run: the page's enhancements, the map widget, the map's
    /// controls, the account's copy on the device, the changes made offline, search offline, map areas
    /// kept offline. Each page loads all of them (cached), so a map anywhere works.
    static let scripts = [
        SitePaths.script, SitePaths.mapScript, SitePaths.mapControlsScript, SitePaths.offlineStoreScript,
        SitePaths.offlineChangesScript, SitePaths.offlineSearchScript, SitePaths.mapAreasScript,
    ]
    let scriptURLs: [String]
    let faviconURL: String
    let manifestURL = SitePaths.webManifest.path
    let appleTouchIconURL = SitePaths.appleTouchIcon.path
    let serviceWorkerURL = SitePaths.serviceWorker.path
    /// The signed-in account whose data the page's script keeps on the device, and the feed it reads.
    let account: String?
    let syncURL = SyncPaths.api.path
    let offlinePlanURL = SitePaths.offlinePlan.path
    let healthURL = SitePaths.liveness.path
    /// The stylesheet's `--accent`, for the browser's own bars.
    let themeColor = LayoutContext.themeColor
    static let themeColor = "#1f5fbf"
    /// Seconds after which the page reloads itself (a page following work in progress); nil for none.
    var refreshSeconds: Int?

    init(title: String, section: Section = .none, session: PageSession) {
        self.title = title
        userName = session.userName
        account = session.accountUUID?.uuidString.lowercased()
        csrfToken = session.csrfToken
        flash = session.flash
        var links: [NavigationLink] = []
        if session.userName != nil || session.isOfflineShell {
            links.append(
                .init(
                    label: "Contacts", url: SitePaths.contacts.path, icon: "contacts", isCurrent: section == .contacts))
            links.append(.init(label: "Map", url: SitePaths.map.path, icon: "map", isCurrent: section == .map))
            links.append(
                .init(label: "Places", url: SitePaths.places.path, icon: "places", isCurrent: section == .places))
            let today = session.counts[.reminders]
            links.append(
                .init(
                    label: "Reminders", url: SitePaths.reminders.path, icon: "reminders",
                    isCurrent: section == .reminders,
                    badge: today > 0 ? today : nil, badgeDescription: "\(today) due today"))
            let unread = session.counts[.notifications]
            links.append(
                .init(
                    label: "Notifications", url: SitePaths.notifications.path, icon: "notifications",
                    isCurrent: section == .notifications, badge: unread > 0 ? unread : nil,
                    badgeDescription: "\(unread) unread", shortLabel: "Inbox"))
            links.append(
                .init(
                    label: "Settings", url: SitePaths.settings.path, icon: "settings", isCurrent: section == .settings))
        }
        links.append(.init(label: "About", url: SitePaths.about.path, icon: "about", isCurrent: section == .about))
        navigation = links
        homeURL = SitePaths.home.path
        aboutURL = SitePaths.about.path
        logoutURL = AccountPaths.logout.path
        latestNotificationsURL = SitePaths.latestNotifications.path
        stylesheetURL = StaticAssets.versioned(SitePaths.stylesheet)
        scriptURLs = Self.scripts.map(StaticAssets.versioned)
        faviconURL = SitePaths.favicon.path
    }

    init(request: Request, title: String, section: Section = .none) {
        self.init(title: title, section: section, session: request.pageSession)
    }
}

/// A `<select>` option, with its selection worked out before the template.
struct SelectOption: Encodable, Equatable {
    let value: String
    let label: String
    let isSelected: Bool
}

enum ErrorPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let status: Int
        let message: String
        let homeURL: String

        init(layout: LayoutContext, status: Int, message: String) {
            self.layout = layout
            self.status = status
            self.message = message
            homeURL = SitePaths.home.path
        }
    }
}
