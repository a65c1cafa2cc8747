import Foundation

extension PathParameter {
    /// A card's file name in the address book: the contact's uuid and `.vcf`.
    static let cardName = PathParameter("cardName")
    /// A calendar object's file name: its record's uuid and `.ics`, or the name its client chose.
    static let objectName = PathParameter("objectName")
}

/// CardDAV's and CalDAV's addresses. They name no account: the credentials say whose address book it is, so another
/// account's cards are simply not there.
enum DAVPaths {
    static let root = SitePath("dav")
    static let principal = root.appending("principal")
    static let addressBookHome = root.appending("addressbooks")
    static let addressBook = addressBookHome.appending("contacts")
    static let card = addressBook.appending(text: .cardName)
    static let calendarHome = root.appending("calendars")
    /// RFC 6764: where a client given only the server's address looks first.
    static let wellKnownCardDAV = SitePath(".well-known", "carddav")
    static let wellKnownCalDAV = SitePath(".well-known", "caldav")

    static let cardSuffix = ".vcf"
    static let objectSuffix = ".ics"

    /// A collection's address as DAV writes it, with its closing slash.
    static func collection(_ path: SitePath) -> String { path.path + "/" }

    /// The file name a card's address ends in (`…/contacts/ada.vcf`), percent-decoded; nil for another
    /// collection's address.
    static func fileName(inHref href: String) -> String? {
        fileName(inHref: href, of: addressBook)
    }

    /// The file name a calendar object's address ends in (`…/calendars/tasks/x.ics`), else nil.
    static func objectName(inHref href: String, of calendar: DAVCalendar) -> String? {
        fileName(inHref: href, of: calendar.path)
    }

    /// The last part of `href` when the rest is `collection`'s path.
    private static func fileName(inHref href: String, of collection: SitePath) -> String? {
        let path = URLComponents(string: href)?.path ?? href
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, "/" + parts.dropLast().joined(separator: "/") == collection.path else { return nil }
        return parts.last
    }

    /// The uuid an object's file name is (`<uuid>.ics`), else nil.
    static func uuid(inObjectName name: String) -> UUID? {
        guard name.hasSuffix(objectSuffix) else { return nil }
        return UUID(uuidString: String(name.dropLast(objectSuffix.count)))
    }

    /// The contact's uuid a card's file name is (`<uuid>.vcf`), else nil.
    static func contactUUID(inFileName name: String) -> UUID? {
        guard name.hasSuffix(cardSuffix) else { return nil }
        return UUID(uuidString: String(name.dropLast(cardSuffix.count)))
    }
}
