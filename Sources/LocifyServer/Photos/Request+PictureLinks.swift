import LocifyCore
import Vapor

extension Request {
    /// The page link of the contact's picture (relative and signed), nil when it shows initials, which the
    /// page draws itself without a request.
    func pictureURL(_ contact: Contact) -> String? {
        contact.avatar.source == .initials ? nil : avatarURL(contact, base: "")
    }
}
