import Foundation
import LocifyCore

/// Monica's photo: `id, uuid, object, original_filename, new_filename, filesize, mime_type, dataUrl, link,
/// account, contact, created_at, updated_at`, then `contact_id` and the size Locify read from the header.
public struct PhotoResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "photo"
    public var originalFilename: String
    public var newFilename: String
    public var filesize: Int
    public var mimeType: String
    /// The whole image as a data URL, as Monica sends it; `link` serves the same bytes.
    public var dataURL: String
    /// The stored file, signed so an image loader without credentials can fetch it.
    public var link: String
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int
    public var width: Int
    public var height: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case originalFilename = "original_filename"
        case newFilename = "new_filename"
        case filesize
        case mimeType = "mime_type"
        case dataURL = "dataUrl"
        case link, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
        case width, height
    }

    public init(_ photo: Photo, bytes: [UInt8], link: String, contact: ContactShortResource) {
        id = photo.id
        uuid = photo.uuid.uuidString.lowercased()
        originalFilename = photo.originalFilename
        newFilename = photo.storedFilename
        filesize = photo.byteCount
        mimeType = photo.format.mimeType
        dataURL = "data:\(photo.format.mimeType);base64," + Data(bytes).base64EncodedString()
        self.link = link
        account = AccountReference(id: photo.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(photo.createdAt)
        updatedAt = Timestamp.string(photo.updatedAt)
        contactID = photo.contactID
        width = photo.width
        height = photo.height
    }
}

/// The JSON body of a photo upload: `contact_id` and `data` (base64, or a data URL), with an optional
/// `original_filename`. Multipart uploads are read by the server into the same values.
public struct PhotoInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var data: String?
    public private(set) var originalFilename: String?
    public private(set) var typeErrors: [FieldError] = []

    static let labels = ["contact_id": "Contact", "data": "Photo", "original_filename": "File name"]

    public init(contactID: Int?, data: String?, originalFilename: String?) {
        self.contactID = contactID
        self.data = data
        self.originalFilename = originalFilename
    }

    public init(from decoder: any Decoder) throws {
        var reader = LenientReader(container: try decoder.container(keyedBy: LenientKey.self), labels: Self.labels)
        contactID = reader.integer("contact_id")
        data = reader.string("data")
        originalFilename = reader.string("original_filename")
        typeErrors = reader.errors
    }
}

/// The body of `PUT /api/contacts/{id}/avatar`: `source` (default, adorable, gravatar or photo) and
/// `photo_id` when the source is a photo.
public struct AvatarInput: Decodable, Sendable {
    public private(set) var source: String?
    public private(set) var photoID: Int?
    public private(set) var typeErrors: [FieldError] = []

    static let labels = ["source": "Avatar", "photo_id": "Photo"]

    public init(source: String?, photoID: Int?) {
        self.source = source
        self.photoID = photoID
    }

    public init(from decoder: any Decoder) throws {
        var reader = LenientReader(container: try decoder.container(keyedBy: LenientKey.self), labels: Self.labels)
        source = reader.string("source")
        photoID = reader.integer("photo_id")
        typeErrors = reader.errors
    }
}
