import Foundation

/// Gzip (RFC 1952): written without compressing (the data in deflate's stored blocks, for formats that
/// require gzip framing where the bytes are small or compressed again on the way: PMTiles' directories,
/// which some readers always gunzip), read whatever its blocks.
public enum Gzip {
    public struct ReadFailure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// `data` framed as gzip, in stored blocks.
    public static func stored(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        let bytes = [UInt8](data)
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            out.append(end == bytes.count ? 1 : 0)
            out.append(contentsOf: [
                UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
            ])
            out.append(contentsOf: bytes[start..<end])
            start = end
        } while start < bytes.count
        for value in [crc32(bytes), UInt32(truncatingIfNeeded: bytes.count)] {
            out.append(contentsOf: (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) })
        }
        return out
    }

    /// The data of a gzip member (RFC 1952): any deflate blocks, the optional header fields skipped, the
    /// CRC and length checked.
    public static func decompressed(_ data: Data) throws(ReadFailure) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else {
            throw ReadFailure(description: "not gzip data")
        }
        let flags = bytes[3]
        var position = 10
        func skipText() {
            while position < bytes.count, bytes[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x04 != 0, position + 2 <= bytes.count {
            position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
        }
        if flags & 0x08 != 0 { skipText() }
        if flags & 0x10 != 0 { skipText() }
        if flags & 0x02 != 0 { position += 2 }
        guard position < bytes.count else { throw ReadFailure(description: "gzip data cut short") }
        let inflated: (output: [UInt8], end: Int)
        do {
            inflated = try Inflate.decompress(bytes, from: position)
        } catch {
            throw ReadFailure(description: error.description)
        }
        let end = inflated.end
        guard end + 8 <= bytes.count else { throw ReadFailure(description: "gzip data cut short") }
        let word = { (at: Int) in (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) } }
        guard word(end) == crc32(inflated.output), word(end + 4) == UInt32(truncatingIfNeeded: inflated.output.count)
        else { throw ReadFailure(description: "gzip data damaged (CRC or length mismatch)") }
        return Data(inflated.output)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
