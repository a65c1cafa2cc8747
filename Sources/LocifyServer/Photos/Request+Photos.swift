import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    func photos() throws -> PhotoService {
        PhotoService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    func avatars() throws -> AvatarService {
        AvatarService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each photo with its bytes (Monica's `dataUrl`) and contact, each read in one query.
    func photoResources(_ photos: [Photo]) async throws -> [PhotoResource] {
        let bytes = try await self.photos().bytes(of: photos)
        let base = baseURL
        let expires = pictureLinkExpiry
        return try await resources(photos, contactOf: \.contactID) { photo, contact in
            guard let data = bytes[photo.digest] else { throw AppError.notFound }
            return PhotoResource(
                photo, bytes: data, link: photoLink(photo, base: base, expires: expires), contact: contact)
        }
    }

    /// The upload in the body, multipart or JSON, which its route (`BodyLimit.photo`) has read up to the
    /// larger of the two allowances; a multipart body that says it is over its own is refused here.
    func photoUpload() throws -> ReceivedPhoto {
        let maximum = application.locifyConfig.maximumPhotoBytes
        let isMultipart = headers.contentType?.type == "multipart"
        // Room for the form's other parts (base64's third more is the route's limit).
        if isMultipart, let length = declaredBodyLength, length > maximum + 64 * 1024 {
            throw PhotoTooLarge(maximumBytes: maximum)
        }
        guard let data = body.data, data.readableBytes > 0 else {
            return ReceivedPhoto(
                content: .nothing, contactID: nil, filename: nil, typeErrors: [], maximumBytes: maximum)
        }
        if isMultipart {
            let form: PhotoForm
            do {
                form = try content.decode(PhotoForm.self)
            } catch {
                throw UnreadableUpload()
            }
            var problems: [FieldError] = []
            let contactID = LooseValue.integer(
                form.contactID, field: "contact_id", label: "Contact", problems: &problems)
            let content: ReceivedPhoto.Content =
                if let file = form.photo { .bytes(Array(file.data.readableBytesView)) } else if let text = form.data {
                    .base64(text)
                } else { .nothing }
            return ReceivedPhoto(
                content: content, contactID: contactID, filename: form.photo?.filename, typeErrors: problems,
                maximumBytes: maximum)
        }
        guard headers.contentType == .json else { throw AppError.malformedBody }
        let input = try content.decode(PhotoInput.self)
        return ReceivedPhoto(
            content: input.data.map { .base64($0) } ?? .nothing, contactID: input.contactID,
            filename: input.originalFilename, typeErrors: input.typeErrors, maximumBytes: maximum)
    }
}
