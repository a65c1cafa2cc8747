import Foundation
import LocifyCore

/// Monica's document: `id, object, original_filename, new_filename, filesize, type, mime_type,
/// number_of_downloads, link, url, account, contact, created_at, updated_at`, with `uuid` after `id` and
/// `contact_id` last, as Locify's other records have them.
public struct DocumentResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "document"
    public var originalFilename: String
    public var newFilename: String
    public var filesize: Int
    @Nullable public var type: String?
    public var mimeType: String
    public var numberOfDownloads: Int
    /// Downloads the file (with the API's token).
    public var link: String
    public var url: String
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case originalFilename = "original_filename"
        case newFilename = "new_filename"
        case filesize, type
        case mimeType = "mime_type"
        case numberOfDownloads = "number_of_downloads"
        case link, url, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ document: Document, link: String, url: String, contact: ContactShortResource) {
        id = document.id
        uuid = document.uuid.lowercasedText
        originalFilename = document.originalFilename
        newFilename = document.storedFilename
        filesize = document.byteCount
        type = document.fileExtension
        mimeType = document.mimeType
        numberOfDownloads = document.downloads
        self.link = link
        self.url = url
        account = AccountReference(id: document.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(document.createdAt)
        updatedAt = Timestamp.string(document.updatedAt)
        contactID = document.contactID
    }
}
