/// The site's entry points: the navigation's sections, the Settings page's pages, the lists the API's
/// root names, and the files every page loads. Each feature's paths (`ContactPaths`, `NotePaths`, …)
/// start from these or from one another, so no path is spelled twice.
enum SitePaths {
    static let home = SitePath()
    static let contacts = SitePath("contacts")
    static let map = SitePath("map")
    static let places = SitePath("places")
    static let reminders = SitePath("reminders")
    /// Linked from the Reminders page, in its section of the navigation.
    static let tasks = SitePath("tasks")
    /// Linked from the Reminders page too.
    static let journal = SitePath("journal")
    static let notifications = SitePath("notifications")
    /// What every page's script asks for the newest notifications, to show them from the browser.
    static let latestNotifications = notifications.appending("latest.json")
    static let settings = SitePath("settings")
    static let about = SitePath("about")
    /// The first-run page a new account lands on: ways to bring in or start the account's data.
    static let start = SitePath("start")

    static let settingsProfile = settings.appending("profile")
    static let settingsPassword = settings.appending("password")
    static let settingsTokens = settings.appending("tokens")
    static let settingsImport = settings.appending("import")
    static let settingsExport = settings.appending("export")
    /// Every reminder as one iCalendar file, to download (the feed is the same, to subscribe to).
    static let settingsExportReminders = settingsExport.appending("reminders.ics")
    /// Everything the account holds as one JSON file, to import into another Locify server.
    static let settingsExportAccount = settingsExport.appending("account.json")
    static let settingsImportAccount = settingsImport.appending("account")
    static let settingsNotifications = settings.appending("notifications")
    static let settingsPlaces = settings.appending("places")
    /// A download of places: `?format=` one of the export formats.
    static let settingsPlacesExport = settingsPlaces.appending("export")
    static let settingsGenders = settings.appending("genders")
    static let settingsFieldKinds = settings.appending("field-kinds")
    static let settingsGravatar = settings.appending("gravatar")
    static let settingsFeedback = settings.appending("feedback")
    /// For the accounts in `LOCIFY_ADMIN_EMAILS`: the server's background work.
    static let settingsServer = settings.appending("server")

    static let api = SitePath("api")
    static let apiMe = api.appending("me")
    static let apiContacts = api.appending("contacts")
    static let apiAddresses = api.appending("addresses")
    static let apiCountries = api.appending("countries")
    static let apiReminders = api.appending("reminders")
    static let apiPlaces = api.appending("places")
    static let oauth = SitePath("oauth")
    static let oauthLogin = oauth.appending("login")
    /// Stored pictures, fetched by image loaders and API clients.
    static let store = SitePath("store")

    /// Served from `Public/` as they are, not by routes.
    static let stylesheet = SitePath("css", "locify.css")
    static let script = SitePath("js", "locify.js")
    static let mapScript = SitePath("js", "map.js")
    static let mapControlsScript = SitePath("js", "map-controls.js")
    static let offlineStoreScript = SitePath("js", "offline-store.js")
    static let offlineChangesScript = SitePath("js", "offline-changes.js")
    static let offlineSearchScript = SitePath("js", "offline-search.js")
    static let mapAreasScript = SitePath("js", "map-areas.js")
    /// Answers while the server runs; the offline app asks it whether a form can be sent.
    static let health = SitePath("health")
    static let liveness = health.appending("live")
    static let favicon = SitePath("favicon.svg")
    /// The installed app's icons, named by the web manifest (made by `Tools/make-app-icons.py`).
    static let appIcon192 = SitePath("icons", "icon-192.png")
    static let appIcon512 = SitePath("icons", "icon-512.png")
    /// Drawn to the edges, for systems that cut icons to their own shape.
    static let maskableIcon512 = SitePath("icons", "maskable-512.png")
    static let appleTouchIcon = SitePath("icons", "apple-touch-icon.png")
    static let appIcons = [appIcon192, appIcon512, maskableIcon512, appleTouchIcon]

    /// The offline web app's entry points, served by routes: the manifest that makes the site installable,
    /// the service worker (at the root, so it may serve every page) and the page shown offline for a
    /// page this device has not saved.
    static let webManifest = SitePath("manifest.webmanifest")
    static let serviceWorker = SitePath("sw.js")
    static let offline = SitePath("offline")
    /// Which pages show which synced records, for the offline app to keep its pages current.
    static let offlinePlan = offline.appending("plan.json")
}
