import Foundation
import ZIPFoundation

/// A PNG file (RFC 2083) of 8-bit RGB or RGBA pixels, for pictures Locify paints itself (the sample data's
/// photos, an avatar's disc).
public enum PNG {
    public struct SizeMismatch: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The file of a `width` × `height` image whose pixels are `rgb`, three bytes each, row by row.
    public static func encoded(width: Int, height: Int, rgb: [UInt8]) throws -> [UInt8] {
        try encoded(width: width, height: height, pixels: rgb, channels: 3)
    }

    /// The file of a `width` × `height` image whose pixels are `rgba`, four bytes each (alpha last, not
    /// premultiplied), row by row.
    public static func encoded(width: Int, height: Int, rgba: [UInt8]) throws -> [UInt8] {
        try encoded(width: width, height: height, pixels: rgba, channels: 4)
    }

    private static func encoded(width: Int, height: Int, pixels: [UInt8], channels: Int) throws -> [UInt8] {
        let kind = channels == 4 ? "RGBA" : "RGB"
        guard width > 0, height > 0, pixels.count == width * height * channels else {
            throw SizeMismatch(description: "\(pixels.count) bytes are not the \(kind) pixels of \(width) × \(height)")
        }
        let rowLength = width * channels
        // Each row after its filter byte; 0 (none) keeps the painter simple and deflate still finds the runs.
        var scanlines = [UInt8]()
        scanlines.reserveCapacity(height * (rowLength + 1))
        for row in 0..<height {
            scanlines.append(0)
            scanlines.append(contentsOf: pixels[(row * rowLength)..<((row + 1) * rowLength)])
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // Colour type 2 is RGB, 6 is RGB with alpha.
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        append(chunk: "IHDR", header, to: &file)
        append(chunk: "IDAT", try zlib(scanlines), to: &file)
        append(chunk: "IEND", [], to: &file)
        return file
    }

    /// `bytes` as a zlib stream (RFC 1950): deflate between a header and the Adler-32 of the data.
    private static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
        let input = Data(bytes)
        var deflated = Data()
        _ = try Data.compress(
            size: Int64(input.count), bufferSize: 64 * 1024,
            provider: { position, size in input.subdata(in: Int(position)..<Int(position) + size) },
            consumer: { deflated.append($0) })
        var (low, high): (UInt32, UInt32) = (1, 0)
        for chunk in stride(from: 0, to: bytes.count, by: 5_552) {
            for byte in bytes[chunk..<min(chunk + 5_552, bytes.count)] {
                low += UInt32(byte)
                high += low
            }
            low %= 65_521
            high %= 65_521
        }
        return [0x78, 0x9C] + [UInt8](deflated) + bigEndian(high << 16 | low)
    }

    private static func append(chunk type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        file += bigEndian(UInt32(data.count)) + typed + bigEndian(Gzip.crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
