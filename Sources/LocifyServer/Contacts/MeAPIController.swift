import LocifyAPI
import LocifyCore
import Vapor

/// `GET /api/me` and Monica's `POST`/`DELETE /api/me/contact`: the signed-in person, and which of their
/// contacts is themselves (`me_contact`, and that contact's `is_me`).
struct MeAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.apiMe, use: me)
        routes.post(ContactPaths.apiMeContact, use: setMeContact)
        routes.delete(ContactPaths.apiMeContact, use: forgetMeContact)
    }

    func me(request: Request) async throws -> DataEnvelope<UserResource> {
        DataEnvelope(data: try await request.userResource())
    }

    /// The body's `contact_id` becomes the "me" contact; Monica answers `["true"]`.
    func setMeContact(request: Request) async throws -> [String] {
        let input = try request.jsonInput(MeContactInput.self, empty: MeContactInput())
        let id = try ValidationFailure.checking(typeErrors: input.typeErrors) { () throws(ValidationFailure) in
            guard let id = input.contactID else {
                throw ValidationFailure(field: "contact_id", "The contact id field is required.")
            }
            return id
        }
        try await request.contacts().setMeContact(id)
        return ["true"]
    }

    func forgetMeContact(request: Request) async throws -> [String] {
        try await request.contacts().setMeContact(nil)
        return ["true"]
    }
}

extension Request {
    /// The signed-in person as `GET /api/me` answers them, with their "me" contact.
    func userResource() async throws -> UserResource {
        let user = try requireUser()
        let meContact = try await contacts().meContact()
        return UserResource(
            id: user.id, uuid: user.uuid, profile: user.profile, meContact: meContact.map { contactShortResource($0) },
            createdAt: user.createdAt, updatedAt: user.updatedAt)
    }
}
