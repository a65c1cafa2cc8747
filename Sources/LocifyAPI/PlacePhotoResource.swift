import Foundation
import LocifyCore

/// `{id, uuid, object: "place_photo", place_id, position, original_filename, new_filename, filesize,
/// mime_type, width, height, link, account, created_at, updated_at}`: a picture of a place. `link` serves
/// the file, signed so an image loader without credentials can fetch it; position 1 is the cover.
public struct PlacePhotoResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "place_photo"
    public var placeID: Int
    public var position: Int
    public var originalFilename: String
    public var newFilename: String
    public var filesize: Int
    public var mimeType: String
    public var width: Int
    public var height: Int
    public var link: String
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case placeID = "place_id"
        case position
        case originalFilename = "original_filename"
        case newFilename = "new_filename"
        case filesize
        case mimeType = "mime_type"
        case width, height, link, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ photo: PlacePhoto, link: String) {
        id = photo.id
        uuid = photo.uuid.lowercasedText
        placeID = photo.placeID
        position = photo.position
        originalFilename = photo.originalFilename
        newFilename = photo.storedFilename
        filesize = photo.byteCount
        mimeType = photo.format.mimeType
        width = photo.width
        height = photo.height
        self.link = link
        account = AccountReference(id: photo.ownerID)
        createdAt = Timestamp.string(photo.createdAt)
        updatedAt = Timestamp.string(photo.updatedAt)
    }
}

/// The body of `PUT /api/placephotos/{id}`: `position`, where the picture goes among its place's (1 makes
/// it the cover).
public struct PlacePhotoInput: Decodable, Sendable {
    public private(set) var position: Int?
    public private(set) var typeErrors: [FieldError] = []

    public init(position: Int?) {
        self.position = position
    }

    public init(from decoder: any Decoder) throws {
        var reader = LenientReader(
            container: try decoder.container(keyedBy: LenientKey.self), labels: ["position": "Position"])
        position = reader.integer("position")
        typeErrors = reader.errors
    }
}
