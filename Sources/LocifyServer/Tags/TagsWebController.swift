import LocifyCore
import Vapor

/// The contact page's tags: put on by name (made when the account has none of that name) and taken
/// off. A refused form draws the contact page again with the problem beside the tags.
struct TagsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(TagPaths.contactTags, use: addTags)
        routes.post(TagPaths.removeContactTag, use: removeTag)
    }

    struct TagsForm: Content {
        var tags: String?
    }

    /// Tags typed in one field, separated by commas: each is put on, made when the account has none of
    /// that name.
    func addTags(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let typed = try request.content.decode(TagsForm.self).tags ?? ""
        let names = typed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return try await request.handleContactForm(.tags, contact: contactID, typed: ["tags": typed]) {
            guard !names.isEmpty else { throw ValidationFailure(field: "tags", "Type a tag to add.") }
            try await request.tags().setTags(names, onContact: contactID)
            let added = names.count == 1 ? "The tag “\(names[0])” was added." : "The tags were added."
            return .redirect(to: ContactPaths.contact(contactID).path + "#tags", flash: added)
        }
    }

    func removeTag(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let tag = try await request.tags().tag(try request.pathID(.tagID))
        return try await request.handleContactForm(.tags, contact: contactID) {
            try await request.tags().unsetTags([tag.id], fromContact: contactID)
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#tags", flash: "The tag “\(tag.name)” was taken off.")
        }
    }
}
