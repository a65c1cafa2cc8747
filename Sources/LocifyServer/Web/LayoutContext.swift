import Vapor

/// What the page layout needs: title, navigation, the signed-in user and the CSRF token for forms.
struct LayoutContext: Encodable {
    struct NavigationLink: Encodable {
        let label: String
        let url: String
        let isCurrent: Bool
    }

    let title: String
    let userName: String?
    let csrfToken: String
    let flash: String?
    let navigation: [NavigationLink]
    let logoutURL: String
    let stylesheetURL: String
    let scriptURL: String

    enum Section {
        case contacts, settings, about, none
    }

    init(request: Request, title: String, section: Section = .none) {
        self.title = title
        let user = request.auth.get(AuthenticatedUser.self)
        userName = user?.profile.name
        csrfToken = request.csrfToken
        flash = request.flashMessage
        var links: [NavigationLink] = []
        if user != nil {
            links.append(NavigationLink(label: "Contacts", url: SiteURL.contacts.path, isCurrent: section == .contacts))
            links.append(NavigationLink(label: "Settings", url: SiteURL.settings.path, isCurrent: section == .settings))
        }
        links.append(NavigationLink(label: "About", url: SiteURL.about.path, isCurrent: section == .about))
        navigation = links
        logoutURL = SiteURL.logout.path
        stylesheetURL = SiteURL.stylesheet.path + "?v=" + LocifyConfig.version
        scriptURL = SiteURL.script.path + "?v=" + LocifyConfig.version
    }
}

/// A `<select>` option, with its selection worked out before the template.
struct SelectOption: Encodable {
    let value: String
    let label: String
    let isSelected: Bool
}

enum ErrorPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let status: Int
        let message: String
    }
}
