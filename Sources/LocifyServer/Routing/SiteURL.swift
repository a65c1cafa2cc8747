import Foundation
import Vapor

/// Every path the server serves, written once. Templates get URLs built here, never by hand.
enum SiteURL {
    case home
    case register, login, logout
    case contacts, newContact
    case contact(Int)
    case editContact(Int)
    case deleteContact(Int)
    case settings, settingsProfile, settingsPassword, settingsTokens, settingsImport, settingsExport
    case revokeToken(Int)
    case about
    case stylesheet, script, mapScript, mapControlsScript, favicon
    case oauthLogin
    case health, openAPI
    case api, apiMe, apiContacts
    case apiContact(Int)
    case apiAddresses, apiCountries, apiReminders, apiPlaces
    case apiAddress(Int)
    case newAddress(contact: Int)
    case contactAddresses(contact: Int)
    case editAddress(contact: Int, address: Int)
    case deleteAddress(contact: Int, address: Int)
    case addressVCard(contact: Int, address: Int)
    case contactVCard(Int)
    case map
    case apiReminder(Int)
    case apiContactReminders(Int)
    case apiContactAddresses(Int)
    case apiContactVCard(Int)
    case apiAddressVCard(contact: Int, address: Int)
    case reminders, newReminder
    case editReminder(Int)
    case deleteReminder(Int)
    case reminderDone(Int)
    case notifications, notificationsRead, notificationsLatest
    case notificationRead(Int)
    case settingsNotifications, settingsNotificationsTest, settingsFeed
    case reminderFeed(secret: String)
    case apiReminderFeed
    case apiReminderTimelineGroup(String)
    case apiPhotos
    case apiPhoto(Int)
    case apiContactPhotos(Int)
    case apiContactAvatar(Int)
    /// The picture a contact shows, whatever it is; see `PictureLinks`.
    case avatar(contact: Int)
    /// A stored photo's file, by its `new_filename` (`photos/<uuid>.<ext>`).
    case storedFile(String)
    case contactPhotos(Int)
    case settingsGravatar
    case apiCategories
    case apiCategory(Int)
    case apiPlace(Int)
    case apiSearch
    case apiImports
    case staticMap
    case places, placesFavorites, newPlace, placeCategories
    case placeCategory(Int)
    case renamePlaceCategory(Int)
    case deletePlaceCategory(Int)
    case place(Int)
    case editPlace(Int)
    case deletePlace(Int)
    case placeFavorite(Int)
    case mapPoint
    case settingsPlaces, settingsPlacesImport, settingsPlacesExport, settingsFeedback
    case settingsPlacesImportStatus(Int)
    case apiImport(Int)
    case apiImportRows(Int)
    case contactAvatar(Int)
    case deletePhoto(contact: Int, photo: Int)
    case apiNotes, apiTasks
    case apiNote(Int)
    case apiTask(Int)
    case apiContactNotes(Int)
    case apiContactTasks(Int)
    case apiTags
    case apiTag(Int)
    case apiTagContacts(Int)
    case apiGenders
    case apiGender(Int)
    case apiContactFieldTypes, apiContactFields
    case apiContactContactFields(Int)
    case settingsGenders
    case settingsGender(Int)
    case deleteSettingsGender(Int)
    case settingsFieldKinds
    case settingsFieldKind(Int)
    case deleteSettingsFieldKind(Int)
    case contactFields(Int)
    case contactField(Int)
    case deleteContactField(Int)
    case contactTags(Int)
    case removeContactTag(contact: Int, tag: Int)
    case contactNotes(Int)
    case note(Int)
    case noteFavorite(Int)
    case deleteNote(Int)
    case contactTasks(Int)
    case tasks
    case task(Int)
    case taskDone(Int)
    case deleteTask(Int)

    var path: String {
        switch self {
        case .home: "/"
        case .register: "/register"
        case .login: "/login"
        case .logout: "/logout"
        case .contacts: "/contacts"
        case .newContact: "/contacts/new"
        case .contact(let id): "/contacts/\(id)"
        case .editContact(let id): "/contacts/\(id)/edit"
        case .deleteContact(let id): "/contacts/\(id)/delete"
        case .settings: "/settings"
        case .settingsProfile: "/settings/profile"
        case .settingsPassword: "/settings/password"
        case .settingsTokens: "/settings/tokens"
        case .settingsImport: "/settings/import"
        case .settingsExport: "/settings/export"
        case .revokeToken(let id): "/settings/tokens/\(id)/revoke"
        case .about: "/about"
        case .stylesheet: "/css/locify.css"
        case .script: "/js/locify.js"
        case .mapScript: "/js/map.js"
        case .mapControlsScript: "/js/map-controls.js"
        case .favicon: "/favicon.svg"
        case .oauthLogin: "/oauth/login"
        case .health: "/health"
        case .openAPI: "/openapi.json"
        case .api: "/api"
        case .apiMe: "/api/me"
        case .apiContacts: "/api/contacts"
        case .apiContact(let id): "/api/contacts/\(id)"
        case .apiAddresses: "/api/addresses"
        case .apiCountries: "/api/countries"
        case .apiReminders: "/api/reminders"
        case .apiPlaces: "/api/places"
        case .apiAddress(let id): "/api/addresses/\(id)"
        case .contactAddresses(let contact): "/contacts/\(contact)/addresses"
        case .newAddress(let contact): "/contacts/\(contact)/addresses/new"
        case .editAddress(let contact, let address): "/contacts/\(contact)/addresses/\(address)/edit"
        case .deleteAddress(let contact, let address): "/contacts/\(contact)/addresses/\(address)/delete"
        case .addressVCard(let contact, let address): "/contacts/\(contact)/addresses/\(address)/vcard"
        case .contactVCard(let contact): "/contacts/\(contact)/vcard"
        case .map: "/map"
        case .apiReminder(let id): "/api/reminders/\(id)"
        case .apiContactReminders(let id): "/api/contacts/\(id)/reminders"
        case .apiNotes: "/api/notes"
        case .apiTasks: "/api/tasks"
        case .apiNote(let id): "/api/notes/\(id)"
        case .apiTask(let id): "/api/tasks/\(id)"
        case .apiContactNotes(let id): "/api/contacts/\(id)/notes"
        case .apiContactTasks(let id): "/api/contacts/\(id)/tasks"
        case .apiTags: "/api/tags"
        case .apiTag(let id): "/api/tags/\(id)"
        case .apiTagContacts(let id): "/api/tags/\(id)/contacts"
        case .apiGenders: "/api/genders"
        case .apiGender(let id): "/api/genders/\(id)"
        case .apiContactFieldTypes: "/api/contactfieldtypes"
        case .apiContactFields: "/api/contactfields"
        case .apiContactContactFields(let id): "/api/contacts/\(id)/contactfields"
        case .settingsGenders: "/settings/genders"
        case .settingsGender(let id): "/settings/genders/\(id)"
        case .deleteSettingsGender(let id): "/settings/genders/\(id)/delete"
        case .settingsFieldKinds: "/settings/field-kinds"
        case .settingsFieldKind(let id): "/settings/field-kinds/\(id)"
        case .deleteSettingsFieldKind(let id): "/settings/field-kinds/\(id)/delete"
        case .contactFields(let id): "/contacts/\(id)/fields"
        case .contactField(let id): "/fields/\(id)"
        case .deleteContactField(let id): "/fields/\(id)/delete"
        case .contactTags(let id): "/contacts/\(id)/tags"
        case .removeContactTag(let contact, let tag): "/contacts/\(contact)/tags/\(tag)/remove"
        case .contactNotes(let id): "/contacts/\(id)/notes"
        case .note(let id): "/notes/\(id)"
        case .noteFavorite(let id): "/notes/\(id)/favorite"
        case .deleteNote(let id): "/notes/\(id)/delete"
        case .contactTasks(let id): "/contacts/\(id)/tasks"
        case .tasks: "/tasks"
        case .task(let id): "/tasks/\(id)"
        case .taskDone(let id): "/tasks/\(id)/done"
        case .deleteTask(let id): "/tasks/\(id)/delete"
        case .apiContactAddresses(let id): "/api/contacts/\(id)/addresses"
        case .apiContactVCard(let id): "/api/contacts/\(id)/vcard"
        case .apiAddressVCard(let contact, let address): "/api/contacts/\(contact)/addresses/\(address)/vcard"
        case .reminders: "/reminders"
        case .newReminder: "/reminders/new"
        case .editReminder(let id): "/reminders/\(id)/edit"
        case .deleteReminder(let id): "/reminders/\(id)/delete"
        case .reminderDone(let id): "/reminders/\(id)/done"
        case .notifications: "/notifications"
        case .notificationsRead: "/notifications/read"
        case .notificationsLatest: "/notifications/latest.json"
        case .notificationRead(let id): "/notifications/\(id)/read"
        case .settingsNotifications: "/settings/notifications"
        case .settingsNotificationsTest: "/settings/notifications/test"
        case .settingsFeed: "/settings/feed"
        case .reminderFeed(let secret): "/feeds/\(secret)/reminders.ics"
        case .apiReminderFeed: "/api/reminders/feed"
        case .apiReminderTimelineGroup(let group): "/api/reminders/timeline/\(group)"
        case .apiPhotos: "/api/photos"
        case .apiPhoto(let id): "/api/photos/\(id)"
        case .apiContactPhotos(let id): "/api/contacts/\(id)/photos"
        case .apiContactAvatar(let id): "/api/contacts/\(id)/avatar"
        case .avatar(let contact): "/store/avatars/\(contact)"
        case .storedFile(let name): "/store/\(name)"
        case .contactPhotos(let id): "/contacts/\(id)/photos"
        case .settingsGravatar: "/settings/gravatar"
        case .apiCategories: "/api/categories"
        case .apiCategory(let id): "/api/categories/\(id)"
        case .apiPlace(let id): "/api/places/\(id)"
        case .apiSearch: "/api/search"
        case .apiImports: "/api/imports"
        case .staticMap: "/maps/static.svg"
        case .places: "/places"
        case .placesFavorites: "/places/favorites"
        case .newPlace: "/places/new"
        case .placeCategories: "/places/categories"
        case .placeCategory(let id): "/places/categories/\(id)"
        case .renamePlaceCategory(let id): "/places/categories/\(id)/rename"
        case .deletePlaceCategory(let id): "/places/categories/\(id)/delete"
        case .place(let id): "/places/\(id)"
        case .editPlace(let id): "/places/\(id)/edit"
        case .deletePlace(let id): "/places/\(id)/delete"
        case .placeFavorite(let id): "/places/\(id)/favorite"
        case .mapPoint: "/map/point"
        case .settingsPlaces: "/settings/places"
        case .settingsPlacesImport: "/settings/places/import"
        case .settingsPlacesExport: "/settings/places/export"
        case .settingsFeedback: "/settings/feedback"
        case .settingsPlacesImportStatus(let id): "/settings/places/imports/\(id)"
        case .apiImport(let id): "/api/imports/\(id)"
        case .apiImportRows(let id): "/api/imports/\(id)/rows"
        case .contactAvatar(let id): "/contacts/\(id)/avatar"
        case .deletePhoto(let contact, let photo): "/contacts/\(contact)/photos/\(photo)/delete"
        }
    }

    /// `path` when it is a path on this site, else nil: a link or form field that says where to go next
    /// (`next`, `return_to`) cannot send anyone to another site (`//host`, `/\host`, absolute URLs).
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.utf8.count <= 2_000
        else { return nil }
        return path
    }

    /// The path as route components, so a route is registered from the same spelling its links use.
    var pathComponents: [PathComponent] {
        path.split(separator: "/").map { PathComponent(stringLiteral: String($0)) }
    }

    /// The path with query items, leaving out empty ones.
    func path(query items: [(String, String?)]) -> String {
        var components = URLComponents()
        components.path = path
        let present = items.compactMap { name, value in
            value.flatMap { $0.isEmpty ? nil : URLQueryItem(name: name, value: $0) }
        }
        components.queryItems = present.isEmpty ? nil : present
        return components.string ?? path
    }
}

extension Request {
    /// `scheme://host` of this server as the client reached it, or `LOCIFY_BASE_URL` when set. Worked
    /// out once per request: a list builds a URL for every item.
    var baseURL: String {
        if let known = storage[BaseURLKey.self] { return known }
        let base: String
        if let configured = application.locifyConfig.publicBaseURL {
            base = configured
        } else {
            let scheme = isSecure ? "https" : "http"
            let host = headers.first(name: .host) ?? "\(application.locifyConfig.host):\(application.locifyConfig.port)"
            base = "\(scheme)://\(host)"
        }
        storage[BaseURLKey.self] = base
        return base
    }

    /// True when the client connected over HTTPS, directly or through a trusted proxy that says so.
    var isSecure: Bool {
        if application.locifyConfig.trustedProxies.forwardedOverHTTPS(
            peer: remoteAddress?.ipAddress, forwardedProto: headers.first(name: .xForwardedProto))
        {
            return true
        }
        return application.http.server.configuration.tlsConfiguration != nil
    }

    func absoluteURL(_ site: SiteURL) -> String {
        baseURL + site.path
    }

    func absoluteURL(_ site: SiteURL, query: [(String, String?)]) -> String {
        baseURL + site.path(query: query)
    }
}

private struct BaseURLKey: StorageKey {
    typealias Value = String
}
