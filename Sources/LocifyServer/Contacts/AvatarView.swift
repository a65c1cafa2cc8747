import LocifyCore

/// A contact's avatar on a page: the initials on the contact's colour, always there, with the picture
/// over them when there is one. A picture that fails to load is taken away by the page's script, so the
/// initials show instead of a broken image.
struct AvatarView: Encodable {
    /// The sizes pages use, in CSS pixels: the contact list, the contact page, and lines in other lists.
    enum Size: Int, Encodable {
        case line = 32
        case list = 40
        case page = 128
    }

    let initials: String
    /// One of eight classes (`avatar-color-0`…), one per default colour: the stylesheet holds the colours,
    /// so pages need no inline style and the Content-Security-Policy can forbid it.
    let colorClass: String
    let imageURL: String?
    let size: Size
    /// Lists load their pictures as they scroll into view; the contact page's own picture, at its top,
    /// loads at once, even when the page opens further down (at a section an address names).
    let loading: String

    init(_ contact: Contact, imageURL: String?, size: Size) {
        initials = contact.displayInitials
        colorClass = Self.colorClass(contact.defaultAvatarColor)
        self.imageURL = imageURL
        self.size = size
        loading = size == .page ? "eager" : "lazy"
    }

    static func colorClass(_ color: String) -> String {
        "avatar-color-\(Avatar.defaultColors.firstIndex(of: color) ?? 0)"
    }
}
