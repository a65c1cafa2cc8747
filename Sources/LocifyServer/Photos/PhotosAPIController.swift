import LocifyAPI
import LocifyCore
import Vapor

/// `/api/photos`, `/api/contacts/{id}/photos` and `PUT /api/contacts/{id}/avatar`: Monica's photo and
/// avatar routes. Uploads stream in and are refused as soon as they pass the limit.
struct PhotosAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PhotoPaths.api, use: index)
        routes.upload(PhotoPaths.api, limit: .photo, use: create)
        routes.get(PhotoPaths.apiPhoto, use: show)
        routes.delete(PhotoPaths.apiPhoto, use: delete)
        routes.get(PhotoPaths.apiContactPhotos, use: indexOfContact)
        routes.upload(PhotoPaths.apiContactPhotos, limit: .photo, use: createForContact)
        routes.put(PhotoPaths.apiContactAvatar, use: chooseAvatar)
    }

    func index(request: Request) async throws -> PageResource<PhotoResource> {
        try await page(request, contactID: try request.contactFilter(), path: PhotoPaths.api)
    }

    func indexOfContact(request: Request) async throws -> PageResource<PhotoResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await page(request, contactID: contactID, path: PhotoPaths.apiContactPhotos(contactID))
    }

    private func page(_ request: Request, contactID: Int?, path: some SiteAddress) async throws -> PageResource<
        PhotoResource
    > {
        let query = try ListQuery(from: request, defaultSort: PhotoService.defaultSort)
        let (photos, window) = try await request.photos().page(contactID: contactID, sort: query.sort, page: query.page)
        return PageResource(
            items: try await request.photoResources(photos), window: window, path: request.absoluteURL(path),
            pageURL: query.pageURLs(of: path, on: request))
    }

    func show(request: Request) async throws -> DataEnvelope<PhotoResource> {
        let photo = try await request.photos().photo(try request.pathID(.photoID))
        return DataEnvelope(data: try await request.photoResources([photo])[0])
    }

    func create(request: Request) async throws -> Response {
        let upload = try request.photoUpload()
        return try await created(request, upload: upload, contactID: upload.contactID)
    }

    /// The path names the contact; a `contact_id` in the body is ignored.
    func createForContact(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        return try await created(request, upload: try request.photoUpload(), contactID: contactID)
    }

    private func created(_ request: Request, upload: ReceivedPhoto, contactID: Int?) async throws -> Response {
        let photos = try request.photos()
        let uuid = try request.clientUUID()
        return try await request.answerCreate(of: PhotosTable.self, uuid: uuid) {
            DataEnvelope(data: try await request.photoResources([try await photos.photo($0)])[0])
        } create: {
            let photo = try await photos.create(
                contactID: contactID, upload: try upload.checked(), originalFilename: upload.filename, uuid: uuid)
            return DataEnvelope(data: try await request.photoResources([photo])[0])
        }
    }

    func delete(request: Request) async throws -> DeletedResource {
        let id = try request.pathID(.photoID)
        try await request.photos().delete(id)
        return DeletedResource(id: id)
    }

    func chooseAvatar(request: Request) async throws -> DataEnvelope<ContactResource> {
        let contactID = try request.pathID(.contactID)
        _ = try await request.contacts().contact(contactID)
        let input = try request.jsonInput(AvatarInput.self, empty: AvatarInput(source: nil, photoID: nil))
        guard input.typeErrors.isEmpty else { throw ValidationFailure(input.typeErrors) }
        guard let choice = input.source.flatMap({ AvatarChoice(rawValue: $0.lowercased()) }) else {
            throw ValidationFailure(field: "source", "The avatar must be default, adorable, gravatar or photo.")
        }
        let contact = try await request.avatars().choose(contactID: contactID, choice: choice, photoID: input.photoID)
        return try await request.contactAnswer(try await request.contacts().aggregate(contact))
    }
}

/// A photo as it arrived, before its bytes are checked: from a multipart `photo` file or JSON `data`.
struct ReceivedPhoto {
    enum Content {
        case bytes([UInt8])
        case base64(String)
        case nothing
    }

    let content: Content
    let contactID: Int?
    let filename: String?
    let typeErrors: [FieldError]
    let maximumBytes: Int

    /// The checked photo; every problem (the contact's too) is reported at once.
    func checked() throws -> PhotoUpload {
        var problems = typeErrors
        var upload: PhotoUpload?
        do {
            switch content {
            case .bytes(let bytes): upload = try PhotoUpload(bytes: bytes, maximumBytes: maximumBytes)
            case .base64(let text): upload = try PhotoUpload(base64: text, maximumBytes: maximumBytes)
            case .nothing: problems.append(FieldError(field: "photo", message: "Send the photo as `photo` or `data`."))
            }
        } catch .tooLarge(let maximum) {
            throw PhotoTooLarge(maximumBytes: maximum)
        } catch {
            problems.append(FieldError(field: "photo", message: error.description))
        }
        guard let upload, problems.isEmpty else { throw ValidationFailure(problems) }
        return upload
    }
}

/// A photo over `LOCIFY_MAX_PHOTO_MB`: 413, before the rest of the body is read when its length is known.
struct PhotoTooLarge: AppFailure, Equatable {
    let maximumBytes: Int
    var kind: FailureKind { .tooLarge }
    var messages: [String] { [PhotoUpload.Problem.tooLarge(maximumBytes: maximumBytes).description] }
}

extension BodyLimit {
    /// A photo, as a multipart file or as base64 in JSON (a third larger), with room for the other fields.
    static let photo = BodyLimit(
        bytes: { $0.locifyConfig.maximumPhotoBytes / 3 * 4 + 64 * 1024 },
        tooLarge: { PhotoTooLarge(maximumBytes: $0.locifyConfig.maximumPhotoBytes) })
}

/// A multipart upload: the file as `photo` (or base64 as `data`) and the contact.
struct PhotoForm: Content {
    var photo: File?
    var data: String?
    var contactID: String?

    enum CodingKeys: String, CodingKey {
        case photo, data
        case contactID = "contact_id"
    }
}
