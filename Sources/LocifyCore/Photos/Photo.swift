import Crypto
import Foundation

/// A stored photo of a contact. Its bytes are kept once per account however many photos show them
/// (`digest`, the SHA-256 in hex, names them).
public struct Photo: Hashable, Sendable {
    public var id: Int
    public var uuid: UUID
    public var ownerID: Int
    public var contactID: Int
    /// The name the file had when it was sent, for people; never used to find or serve it.
    public var originalFilename: String
    public var format: ImageFormat
    public var byteCount: Int
    public var width: Int
    public var height: Int
    public var digest: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, originalFilename: String, format: ImageFormat,
        byteCount: Int, width: Int, height: Int, digest: String, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.originalFilename = originalFilename
        self.format = format
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.digest = digest
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Monica's `new_filename`: where the file lives under `/store/`.
    public var storedFilename: String { "photos/\(uuid.uuidString.lowercased()).\(format.fileExtension)" }

    /// The SHA-256 of `bytes` in hex: how identical uploads are recognised.
    public static func digest(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A name for a file sent without one (JSON uploads): the photo's own format decides the extension.
    public static func originalFilename(_ sent: String?, format: ImageFormat) -> String {
        let trimmed = (sent ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        // Only the last path component: a browser may send a whole path, and it is only a label.
        let name = trimmed.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        // Control characters (NUL among them, which PostgreSQL cannot store) are no part of a label.
        let printable = String(
            String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return printable.isEmpty ? "photo.\(format.fileExtension)" : String(printable.prefix(255))
    }
}
