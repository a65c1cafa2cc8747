import XCTest

@testable import LocifyCore

final class PNGTests: XCTestCase {
    /// The chunks of a PNG file: type and data, each checked against its CRC.
    private func chunks(_ file: [UInt8]) throws -> [(type: String, data: [UInt8])] {
        XCTAssertEqual(Array(file.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var found: [(String, [UInt8])] = []
        var position = 8
        func word(_ at: Int) -> Int { file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        while position + 12 <= file.count {
            let length = word(position)
            let typed = Array(file[(position + 4)..<(position + 8 + length)])
            XCTAssertEqual(word(position + 8 + length), Int(Gzip.crc32(typed)), "CRC of chunk at \(position)")
            found.append((String(decoding: typed.prefix(4), as: UTF8.self), Array(typed.dropFirst(4))))
            position += 12 + length
        }
        XCTAssertEqual(position, file.count)
        return found
    }

    func testAnImageIsWrittenAsAPNGWhosePixelsReadBack() throws {
        let width = 3
        let height = 2
        let rgb: [UInt8] = (0..<(width * height * 3)).map { UInt8($0 * 13 % 256) }
        let file = try PNG.encoded(width: width, height: height, rgb: rgb)
        let info = try XCTUnwrap(ImageInfo(file))
        XCTAssertEqual([info.format.mimeType, "\(info.width)×\(info.height)"], ["image/png", "3×2"])
        let parts = try chunks(file)
        XCTAssertEqual(parts.map(\.type), ["IHDR", "IDAT", "IEND"])
        XCTAssertEqual(Array(parts[0].data.suffix(5)), [8, 2, 0, 0, 0], "8-bit RGB, not interlaced")
        let stream = parts[1].data
        XCTAssertEqual(Array(stream.prefix(2)), [0x78, 0x9C], "a zlib stream")
        let inflated = try Inflate.decompress(stream, from: 2)
        XCTAssertEqual(inflated.output, [0] + rgb[0..<9] + [0] + rgb[9..<18], "each row after filter 0")
        let adler = stream[(inflated.end)..<(inflated.end + 4)].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(adler, adler32(inflated.output))

        XCTAssertThrowsError(try PNG.encoded(width: 2, height: 2, rgb: [0, 0, 0]))
    }

    func testAnAvatarDiscIsItsColourInsideAndTransparentOutside() throws {
        let size = 20
        let file = try Avatar.discPNG(background: "#3366cc", size: size)
        let parts = try chunks(file)
        XCTAssertEqual(Array(parts[0].data.suffix(5)), [8, 6, 0, 0, 0], "8-bit RGBA, not interlaced")
        let rows = try Inflate.decompress(parts[1].data, from: 2).output
        XCTAssertEqual(rows.count, size * (size * 4 + 1))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let start = y * (size * 4 + 1) + 1 + x * 4
            return Array(rows[start..<start + 4])
        }
        XCTAssertEqual(pixel(10, 10), [0x33, 0x66, 0xcc, 255])
        XCTAssertEqual(pixel(0, 0)[3], 0)
        XCTAssertEqual(pixel(19, 19)[3], 0)
        let edge = pixel(0, 10)[3]
        XCTAssertTrue(edge > 0 && edge < 255, "the edge is smoothed: \(edge)")
        XCTAssertEqual(
            Array(try chunks(try Avatar.discPNG(background: "not a colour", size: 4))[0].data.prefix(8)),
            [0, 0, 0, 4, 0, 0, 0, 4], "any background still draws")
        XCTAssertThrowsError(try PNG.encoded(width: 2, height: 1, rgba: [0, 0, 0, 0]))
    }

    func testEveryPaintedLandscapeIsAPictureNotABlankSquare() throws {
        for landscape in PaintedLandscape.allCases {
            let file = try landscape.png(size: 64)
            let info = try XCTUnwrap(ImageInfo(file))
            XCTAssertEqual(info.width, 64)
            let pixels = try Inflate.decompress(try chunks(file)[1].data, from: 2).output
            let colours = Set(stride(from: 1, to: pixels.count - 2, by: 3).map { pixels[$0..<$0 + 3].map { Int($0) } })
            XCTAssertGreaterThan(colours.count, 100, "\(landscape) has shades, a sky, land")
        }
        XCTAssertNotEqual(try PaintedLandscape.mountains.png(size: 32), try PaintedLandscape.forestLake.png(size: 32))
    }

    private func adler32(_ bytes: [UInt8]) -> Int {
        var (low, high) = (1, 0)
        for byte in bytes {
            low = (low + Int(byte)) % 65_521
            high = (high + low) % 65_521
        }
        return high << 16 | low
    }
}
