import Foundation

/// A file kept with a contact (Monica's document): any kind of file, its bytes stored once per account
/// beside the photos' (by their SHA-256).
public struct Document: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public let originalFilename: String
    public let mimeType: String
    public let byteCount: Int
    /// SHA-256 of the bytes, lower-case hex.
    public let digest: String
    /// How many times the file was downloaded (Monica's `number_of_downloads`).
    public var downloads: Int
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, originalFilename: String, mimeType: String, byteCount: Int,
        digest: String, downloads: Int, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.originalFilename = originalFilename
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.digest = digest
        self.downloads = downloads
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Monica's `type`: the file's extension, lower-case, when its name has one.
    public var fileExtension: String? {
        guard let dot = originalFilename.lastIndex(of: "."), dot != originalFilename.startIndex else { return nil }
        let text = originalFilename[originalFilename.index(after: dot)...].lowercased()
        return text.isEmpty || text.count > 10 || !text.allSatisfy({ $0.isLetter || $0.isNumber }) ? nil : text
    }

    /// Monica's `new_filename`: where the file is kept, named by its digest.
    public var storedFilename: String { "documents/" + digest + (fileExtension.map { "." + $0 } ?? "") }

    /// The name a file keeps: its own without any folder, control characters or quotes (it goes into a
    /// download's `Content-Disposition`), at most 255 characters; "document" when nothing is left.
    public static func originalFilename(_ name: String?) -> String {
        let lastPart = (name ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(
            lastPart.unicodeScalars.filter {
                !CharacterSet.controlCharacters.contains($0) && $0 != "\"" && $0 != "\u{0}"
            }
        ).trimmingCharacters(in: .whitespaces)
        let kept = String(cleaned.unicodeScalars.prefix(255))
        return kept.isEmpty ? "document" : kept
    }

    /// The type a file is sent as: the upload's own when it names one (`type/subtype`), else one
    /// that says nothing about it.
    public static func mimeType(_ declared: String?) -> String {
        guard let declared = declared?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
            declared.count <= 100, declared.split(separator: "/").count == 2,
            declared.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/.+-_".contains($0)) })
        else { return "application/octet-stream" }
        return declared
    }
}
