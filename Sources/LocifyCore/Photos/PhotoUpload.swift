import Foundation

/// A photo as sent: its bytes, checked for a format Locify keeps and for size.
public struct PhotoUpload: Equatable, Sendable {
    public let bytes: [UInt8]
    public let info: ImageInfo

    /// 5 MB unless the administrator says otherwise (`LOCIFY_MAX_PHOTO_MB`).
    public static let defaultMaximumBytes = 5 * 1024 * 1024

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case empty
        case tooLarge(maximumBytes: Int)
        case notAnImage
        case unreadableBase64

        public var description: String {
            switch self {
            case .empty: "The photo is empty."
            case .tooLarge(let maximum): "The photo is larger than \(maximum / (1024 * 1024)) MB."
            case .notAnImage: "The photo must be a JPEG, PNG, GIF or WebP image; this file is not one of those."
            case .unreadableBase64: "The photo's data is not valid base64 or a base64 data URL."
            }
        }
    }

    /// Checks `bytes`: not empty, not over `maximumBytes`, and an image by its own header.
    public init(bytes: [UInt8], maximumBytes: Int = defaultMaximumBytes) throws(Problem) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= maximumBytes else { throw .tooLarge(maximumBytes: maximumBytes) }
        guard let info = ImageInfo(bytes) else { throw .notAnImage }
        self.bytes = bytes
        self.info = info
    }

    /// From the API's `data`: plain base64, or a data URL (`data:image/png;base64,…`) whose declared type is
    /// ignored in favour of the bytes.
    public init(base64 text: String, maximumBytes: Int = defaultMaximumBytes) throws(Problem) {
        // Cut by bytes: read as characters, an emoji modifier or a combining mark after the ":" or ","
        // fuses with it into one character that is neither.
        var payload = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        if String(decoding: payload.prefix(5), as: UTF8.self).lowercased() == "data:" {
            guard let comma = payload.firstIndex(of: UInt8(ascii: ",")),
                String(decoding: payload[..<comma], as: UTF8.self).lowercased().hasSuffix(";base64")
            else { throw .unreadableBase64 }
            payload = Array(payload[(comma + 1)...])
        }
        // Base64 is a third larger than what it carries: a text far over the limit is refused unread.
        guard payload.count <= maximumBytes / 3 * 4 + 8 else { throw .tooLarge(maximumBytes: maximumBytes) }
        // Line breaks and spaces are allowed (MIME wraps base64); any other stray character is an error.
        let asciiWhitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
        guard let data = Data(base64Encoded: Data(payload.filter { !asciiWhitespace.contains($0) })) else {
            throw .unreadableBase64
        }
        try self.init(bytes: [UInt8](data), maximumBytes: maximumBytes)
    }
}
