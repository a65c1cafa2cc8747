import Foundation

/// Gzip (RFC 1952) without compressing: the data in deflate's stored blocks, for formats that require
/// gzip framing (PMTiles' directories, which some readers always gunzip) where the bytes are small or
/// compressed again on the way.
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

    /// The data of a gzip member written in stored blocks (as `stored(_:)` writes); compressed blocks are
    /// refused with a reason.
    public static func unstored(_ data: Data) throws(ReadFailure) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else {
            throw ReadFailure(description: "not gzip data")
        }
        guard bytes[3] == 0 else { throw ReadFailure(description: "gzip with optional header fields") }
        var position = 10
        var out: [UInt8] = []
        while true {
            guard position + 5 <= bytes.count else { throw ReadFailure(description: "gzip data cut short") }
            let header = bytes[position]
            guard header & 0b110 == 0 else {
                throw ReadFailure(description: "compressed gzip data (only stored blocks are read)")
            }
            let length = Int(bytes[position + 1]) | Int(bytes[position + 2]) << 8
            position += 5
            guard position + length <= bytes.count else { throw ReadFailure(description: "gzip data cut short") }
            out.append(contentsOf: bytes[position..<(position + length)])
            position += length
            if header & 1 == 1 { break }
        }
        guard position + 8 <= bytes.count else { throw ReadFailure(description: "gzip data cut short") }
        let expected = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + $1]) << UInt32(8 * $1) }
        guard expected == crc32(out) else { throw ReadFailure(description: "gzip data damaged (CRC mismatch)") }
        return Data(out)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
