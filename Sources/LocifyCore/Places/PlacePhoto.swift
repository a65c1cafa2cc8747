import Foundation

/// A picture of a place. Its bytes are kept once per account with the contacts' photos (`digest` names
/// them); `position` orders a place's pictures, and the first is the place's cover.
public struct PlacePhoto: Hashable, Sendable {
    public var id: Int
    public var uuid: UUID
    public var ownerID: Int
    public var placeID: Int
    /// 1 for the cover, then 2, 3…
    public var position: Int
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
        id: Int, uuid: UUID, ownerID: Int, placeID: Int, position: Int, originalFilename: String,
        format: ImageFormat, byteCount: Int, width: Int, height: Int, digest: String, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.placeID = placeID
        self.position = position
        self.originalFilename = originalFilename
        self.format = format
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.digest = digest
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Where the file lives under `/store/`, and its name in a KMZ.
    public var storedFilename: String { "\(Self.folder)/\(uuid.uuidString.lowercased()).\(format.fileExtension)" }

    public static let folder = "place-photos"

    /// A place holds at most this many pictures.
    public static let maximumPerPlace = 50

    public static let tooMany = "A place holds at most \(maximumPerPlace) photos; delete one to add another."

    /// Where a picture asked to go to `wanted` lands among `count` pictures: the first or last place at most.
    public static func position(_ wanted: Int, among count: Int) -> Int { min(max(wanted, 1), max(count, 1)) }
}
