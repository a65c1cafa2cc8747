import Foundation
import LocifyCore

extension FormName {
    static let tags = FormName("tags")
}

/// The contact page's tags: each a link to the contacts carrying it, with a remove button; a field to
/// add more, suggesting the account's other tags.
struct ContactTagsSection: Encodable {
    struct Item: Encodable {
        let name: String
        let listURL: String
        let removeURL: String
    }

    let items: [Item]
    let addURL: String
    let tagsField: FormField

    init(contactID: Int, tags: [Tag], allTags: [Tag], problem: FormProblem?) {
        items = tags.map {
            Item(
                name: $0.name, listURL: SitePaths.contacts.path(query: [("tag", String($0.id))]),
                removeURL: TagPaths.removeContactTag(contactID, $0.id).path)
        }
        let onContact = Set(tags.map(\.id))
        addURL = TagPaths.contactTags(contactID).path
        tagsField = FormField(
            "tags", label: "Add tags", value: problem?.typed("tags", in: .tags), error: problem?.message(for: .tags),
            hint: "Separate several with commas; a new name makes a new tag.", maxLength: 1000,
            suggestions: allTags.filter { !onContact.contains($0.id) }.map(\.name)
        ).identified(as: "new-tags")
    }
}
