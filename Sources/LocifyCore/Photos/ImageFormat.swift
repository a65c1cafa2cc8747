import Foundation

/// The picture formats Locify keeps, told apart by their bytes: a file's name and its declared type are
/// the sender's claim, its first bytes are what a browser will act on.
public enum ImageFormat: String, CaseIterable, Sendable {
    case jpeg, png, gif, webp

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        }
    }

    /// The extension a stored file of this format gets, whatever the uploaded file was called.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        }
    }

    /// The format whose MIME type is `mimeType`, as stored.
    public init?(mimeType: String) {
        guard let format = Self.allCases.first(where: { $0.mimeType == mimeType }) else { return nil }
        self = format
    }
}

/// What an image's header says about it.
public struct ImageInfo: Equatable, Sendable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The format and size of `bytes`, read from the header alone; nil for anything that is not a JPEG,
    /// PNG, GIF or WebP with a size in its header (SVG, HTML and truncated files included).
    public init?(_ bytes: [UInt8]) {
        guard let info = Self.png(bytes) ?? Self.gif(bytes) ?? Self.webp(bytes) ?? Self.jpeg(bytes),
            info.width > 0, info.height > 0
        else { return nil }
        self = info
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private static func starts(_ bytes: [UInt8], with prefix: [UInt8], at offset: Int = 0) -> Bool {
        offset + prefix.count <= bytes.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
    }

    /// The signature, then the IHDR chunk with width and height as 32-bit big-endian numbers.
    private static func png(_ bytes: [UInt8]) -> ImageInfo? {
        guard starts(bytes, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            starts(bytes, with: Array("IHDR".utf8), at: 12),
            let width = bigEndian(bytes, 16, 4), let height = bigEndian(bytes, 20, 4)
        else { return nil }
        return ImageInfo(format: .png, width: width, height: height)
    }

    /// `GIF87a` or `GIF89a`, then the logical screen's width and height, 16-bit little-endian.
    private static func gif(_ bytes: [UInt8]) -> ImageInfo? {
        guard starts(bytes, with: Array("GIF87a".utf8)) || starts(bytes, with: Array("GIF89a".utf8)),
            let width = littleEndian(bytes, 6, 2), let height = littleEndian(bytes, 8, 2)
        else { return nil }
        return ImageInfo(format: .gif, width: width, height: height)
    }

    /// A RIFF container of type WEBP whose first chunk is lossy (`VP8 `), lossless (`VP8L`) or extended
    /// (`VP8X`), each keeping the size its own way.
    private static func webp(_ bytes: [UInt8]) -> ImageInfo? {
        guard starts(bytes, with: Array("RIFF".utf8)), starts(bytes, with: Array("WEBP".utf8), at: 8) else {
            return nil
        }
        if starts(bytes, with: Array("VP8 ".utf8), at: 12) {
            // The key frame's start code, then 14-bit width and height.
            guard starts(bytes, with: [0x9D, 0x01, 0x2A], at: 23),
                let width = littleEndian(bytes, 26, 2), let height = littleEndian(bytes, 28, 2)
            else { return nil }
            return ImageInfo(format: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
        }
        if starts(bytes, with: Array("VP8L".utf8), at: 12) {
            // The signature byte, then width − 1 and height − 1 in 14 bits each.
            guard bytes.count > 24, bytes[20] == 0x2F, let packed = littleEndian(bytes, 21, 4) else { return nil }
            return ImageInfo(format: .webp, width: (packed & 0x3FFF) + 1, height: ((packed >> 14) & 0x3FFF) + 1)
        }
        if starts(bytes, with: Array("VP8X".utf8), at: 12) {
            // The canvas: width − 1 and height − 1, 24-bit little-endian.
            guard let width = littleEndian(bytes, 24, 3), let height = littleEndian(bytes, 27, 3) else { return nil }
            return ImageInfo(format: .webp, width: width + 1, height: height + 1)
        }
        return nil
    }

    /// Start of image, then segments until a start-of-frame one, which holds the height and the width.
    private static func jpeg(_ bytes: [UInt8]) -> ImageInfo? {
        guard starts(bytes, with: [0xFF, 0xD8, 0xFF]) else { return nil }
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            var marker = bytes[offset + 1]
            // Any number of 0xFF may pad before a marker.
            while marker == 0xFF, offset + 2 < bytes.count {
                offset += 1
                marker = bytes[offset + 1]
            }
            offset += 2
            // Markers without a length: TEM and the restart markers.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0xD9, marker != 0xDA, let length = bigEndian(bytes, offset, 2), length >= 2 else {
                return nil
            }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard let height = bigEndian(bytes, offset + 3, 2), let width = bigEndian(bytes, offset + 5, 2) else {
                    return nil
                }
                return ImageInfo(format: .jpeg, width: width, height: height)
            }
            offset += length
        }
        return nil
    }
}
