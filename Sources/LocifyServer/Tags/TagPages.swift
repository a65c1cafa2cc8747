import Foundation
import LocifyCore

/// The contact page's tags: each a link to the contacts carrying it, with a remove button; a field to
/// add more, suggesting the account's other tags.
struct ContactTagsSection: Encodable {
    struct Item: Encodable {
        let name: String
        let listURL: String
        let removeURL: String
    }

    let items: [Item]
    let suggestions: [String]
    let addURL: String
    let error: String?
    let typed: String?

    init(contactID: Int, tags: [Tag], allTags: [Tag], problem: ContactSectionProblem?) {
        items = tags.map {
            Item(
                name: $0.name, listURL: SiteURL.contacts.path(query: [("tag", String($0.id))]),
                removeURL: SiteURL.removeContactTag(contact: contactID, tag: $0.id).path)
        }
        let onContact = Set(tags.map(\.id))
        suggestions = allTags.filter { !onContact.contains($0.id) }.map(\.name)
        addURL = SiteURL.contactTags(contactID).path
        error = problem?.section == .tags ? problem?.message : nil
        typed = problem?.section == .tags ? problem?.typed : nil
    }
}
