import LocifyCore
import Vapor

/// The contact page's pictures: upload a photo (a preview is shown before sending, where scripts run),
/// make one the avatar, use the Gravatar or go back to initials, delete a photo.
struct ContactPicturesWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.upload(PhotoPaths.contactPhotos, limit: .photo, use: upload)
        routes.post(PhotoPaths.contactAvatar, use: chooseAvatar)
        routes.post(PhotoPaths.deletePhoto, use: delete)
    }

    struct UploadForm: Content {
        var makeAvatar: String?

        enum CodingKeys: String, CodingKey {
            case makeAvatar = "make_avatar"
        }
    }

    func upload(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let contact = try await request.contacts().contact(contactID)
        do {
            let received = try request.photoUpload()
            let photo = try await request.photos().create(
                contactID: contactID, upload: try received.checked(), originalFilename: received.filename)
            let form = try? request.content.decode(UploadForm.self)
            if form?.makeAvatar != nil {
                _ = try await request.avatars().choose(contactID: contactID, choice: .photo, photoID: photo.id)
                return request.redirect(
                    to: ContactPaths.contact(contactID).path + "#pictures",
                    flash: "The photo was added and is now \(contact.completeName)'s picture.")
            }
            return request.redirect(
                to: ContactPaths.contact(contactID).path + "#pictures", flash: "The photo was added.")
        } catch let failure as any AppFailure where failure.kind != .notFound {
            // Not an image, too large, or not a readable form: said beside the upload, with its own status
            // (413 for too large), which is why this form does not go through `handleContactForm`.
            return try await ContactPage.redraw(
                request, contactID,
                FormProblem(form: .picture, itemID: nil, message: failure.plainMessage, typed: [:]),
                status: failure.kind.status)
        }
    }

    struct AvatarForm: Content {
        var source: String?
        var photoID: String?

        enum CodingKeys: String, CodingKey {
            case source
            case photoID = "photo_id"
        }
    }

    func chooseAvatar(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        let form = try request.content.decode(AvatarForm.self)
        return try await request.handleContactForm(.picture, contact: contactID) {
            guard let choice = form.source.flatMap(AvatarChoice.init(rawValue:)) else {
                throw ValidationFailure(field: "source", "Choose a photo, the Gravatar or the initials.")
            }
            let contact = try await request.avatars().choose(
                contactID: contactID, choice: choice, photoID: form.photoID.flatMap { Int($0) })
            let shown =
                switch contact.avatar.source {
                case .photo: "the chosen photo"
                case .gravatar: "the Gravatar"
                case .initials:
                    choice == .gravatar ? "the initials until a Gravatar is found" : "the initials"
                }
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#pictures",
                flash: "\(contact.completeName) now shows \(shown).")
        }
    }

    func delete(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let photos = try request.photos()
        let photo = try await photos.photo(try request.pathID(.photoID))
        guard photo.contactID == contactID else { throw AppError.notFound }
        try await photos.delete(photo.id)
        return request.redirect(to: ContactPaths.contact(contactID).path + "#pictures", flash: "The photo was deleted.")
    }
}

extension FormName {
    /// The upload and the choice of picture: their problem is shown beside the upload.
    static let picture = FormName("picture")
}

/// The pictures section of the contact page.
struct ContactPicturesSection: Encodable {
    struct PhotoCard: Encodable {
        let id: Int
        let url: String
        /// Shown at most 160 pixels wide or high, in the photo's proportions, so nothing moves as it loads.
        let width: Int
        let height: Int
        let name: String
        let isAvatar: Bool
        let deleteURL: String
        /// Which photo "Make it the picture" chooses.
        let choiceField: FormField
    }

    let photos: [PhotoCard]
    let uploadURL: String
    let chooseURL: String
    let shown: String
    let showsInitials: Bool
    let offersGravatar: Bool
    let fileField: FormField
    let makeAvatarField: FormField

    /// `gravatarEmail` is the contact's e-mail Gravatar has a picture for, if any; `photoURL` makes each
    /// photo's link.
    init(
        contact: Contact, photos: [Photo], gravatarEmail: String?, maximumBytes: Int, problem: FormProblem?,
        photoURL: (Photo) -> String
    ) {
        self.photos = photos.map { photo in
            let scale = min(1, 160 / Double(max(photo.width, photo.height)))
            return PhotoCard(
                id: photo.id, url: photoURL(photo), width: max(1, Int((Double(photo.width) * scale).rounded())),
                height: max(1, Int((Double(photo.height) * scale).rounded())), name: photo.originalFilename,
                isAvatar: contact.avatar.source == .photo && contact.avatar.photoID == photo.id,
                deleteURL: PhotoPaths.deletePhoto(contact.id, photo.id).path,
                choiceField: .hidden("photo_id", value: String(photo.id)))
        }
        uploadURL = PhotoPaths.contactPhotos(contact.id).path
        chooseURL = PhotoPaths.contactAvatar(contact.id).path
        showsInitials = contact.avatar.source == .initials
        shown =
            switch contact.avatar.source {
            case .photo: "a photo"
            case .gravatar: "the picture Gravatar has for \(gravatarEmail ?? "the e-mail")"
            case .initials: "the initials"
            }
        offersGravatar = gravatarEmail != nil && contact.avatar.source != .gravatar
        fileField = FormField(
            "photo", label: "Add a photo", control: .file, error: problem?.message(for: .picture),
            hint: "JPEG, PNG, GIF or WebP, up to \(maximumBytes / (1024 * 1024)) MB.", isRequired: true,
            accept: "image/jpeg,image/png,image/gif,image/webp",
            dataAttributes: [.init(name: "photo-preview", value: "photo-preview")]
        ).identified(as: "photo-file")
        makeAvatarField = FormField(
            "make_avatar", label: "Make it \(contact.completeName)'s picture", control: .checkbox, value: "1",
            isChecked: true
        ).identified(as: "photo-make-avatar")
    }
}
