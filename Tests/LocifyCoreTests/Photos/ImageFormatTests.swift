import Foundation
import XCTest

@testable import LocifyCore

/// Images are known by their bytes: each format's header, its size, and everything else refused.
final class ImageFormatTests: XCTestCase {
    private func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    private func littleEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    private var png: [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + Array("IHDR".utf8)
            + bigEndian(640, 4) + bigEndian(480, 4) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    }

    private func jpeg(frame: UInt8) -> [UInt8] {
        // SOI, an APP0 (JFIF) segment, padding before the next marker, then the frame header.
        [0xFF, 0xD8] + [0xFF, 0xE0] + bigEndian(16, 2) + Array("JFIF".utf8) + [0] + Array(repeating: 0, count: 9)
            + [0xFF, 0xFF, frame] + bigEndian(17, 2) + [8] + bigEndian(1080, 2) + bigEndian(1920, 2) + [3]
            + Array(repeating: 0, count: 9)
    }

    private func riff(_ chunk: String, _ body: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + littleEndian(body.count + 12, 4) + Array("WEBP".utf8) + Array(chunk.utf8)
            + littleEndian(body.count, 4) + body
    }

    func testEachFormatIsKnownByItsHeaderWithItsSize() {
        XCTAssertEqual(ImageInfo(png), ImageInfo(format: .png, width: 640, height: 480))
        XCTAssertEqual(
            ImageInfo(Array("GIF89a".utf8) + littleEndian(320, 2) + littleEndian(200, 2) + [0, 0, 0]),
            ImageInfo(format: .gif, width: 320, height: 200))
        XCTAssertEqual(ImageInfo(jpeg(frame: 0xC0)), ImageInfo(format: .jpeg, width: 1920, height: 1080))
        XCTAssertEqual(ImageInfo(jpeg(frame: 0xC2)), ImageInfo(format: .jpeg, width: 1920, height: 1080), "progressive")
        let lossy = riff(
            "VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + littleEndian(400, 2) + littleEndian(300, 2) + [0, 0])
        XCTAssertEqual(ImageInfo(lossy), ImageInfo(format: .webp, width: 400, height: 300))
        let packed = (400 - 1) | ((300 - 1) << 14)
        XCTAssertEqual(
            ImageInfo(riff("VP8L", [0x2F] + littleEndian(packed, 4) + [0, 0, 0])),
            ImageInfo(format: .webp, width: 400, height: 300))
        XCTAssertEqual(
            ImageInfo(riff("VP8X", [0, 0, 0, 0] + littleEndian(4095, 3) + littleEndian(2047, 3))),
            ImageInfo(format: .webp, width: 4096, height: 2048))
        XCTAssertEqual(ImageFormat.allCases.map(\.mimeType), ["image/jpeg", "image/png", "image/gif", "image/webp"])
    }

    func testAnythingElseIsRefused() {
        let refused: [(String, [UInt8])] = [
            ("SVG", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.utf8)),
            ("HTML", Array("<!doctype html><script>alert(1)</script>".utf8)),
            ("empty", []),
            ("truncated PNG", Array(png.prefix(20))),
            ("PNG of no size", Array(png.prefix(16)) + [0, 0, 0, 0, 0, 0, 0, 0]),
            ("JPEG without a frame", [0xFF, 0xD8, 0xFF, 0xD9]),
            ("RIFF that is a WAV", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)),
            ("text that starts like a GIF", Array("GIF".utf8)),
        ]
        for (name, bytes) in refused {
            XCTAssertNil(ImageInfo(bytes), name)
        }
    }

    func testUploadsAreCheckedForContentSizeAndEncoding() throws {
        XCTAssertEqual(try PhotoUpload(bytes: png).info.format, .png)
        XCTAssertThrowsError(try PhotoUpload(bytes: [])) { XCTAssertEqual($0 as? PhotoUpload.Problem, .empty) }
        XCTAssertThrowsError(try PhotoUpload(bytes: png, maximumBytes: 10)) {
            XCTAssertEqual($0 as? PhotoUpload.Problem, .tooLarge(maximumBytes: 10))
        }
        XCTAssertThrowsError(try PhotoUpload(bytes: Array("<svg/>".utf8))) {
            XCTAssertEqual(
                String(describing: $0),
                "The photo must be a JPEG, PNG, GIF or WebP image; this file is not one of those.")
        }
        let base64 = Data(png).base64EncodedString()
        XCTAssertEqual(try PhotoUpload(base64: base64).bytes, png)
        // The declared type of a data URL is ignored: the bytes say JPEG.
        let jpegBytes = jpeg(frame: 0xC0)
        let dataURL = "data:image/png;base64," + Data(jpegBytes).base64EncodedString(options: .lineLength64Characters)
        XCTAssertEqual(try PhotoUpload(base64: dataURL).info.format, .jpeg)
        // A mark that fuses with the ":" into one character leaves the prefix a prefix.
        let fused = "dATA:\u{1F3FB}\u{A0};bASe64," + Data(png).base64EncodedString()
        XCTAssertEqual(try PhotoUpload(base64: fused).bytes, png)
        for bad in ["data:image/png,raw", "not base64!", "data:image/png;base64,@@@@"] {
            XCTAssertThrowsError(try PhotoUpload(base64: bad), bad) {
                XCTAssertEqual($0 as? PhotoUpload.Problem, .unreadableBase64)
            }
        }
        let huge = String(repeating: "A", count: PhotoUpload.defaultMaximumBytes * 2)
        XCTAssertThrowsError(try PhotoUpload(base64: huge)) {
            XCTAssertEqual($0 as? PhotoUpload.Problem, .tooLarge(maximumBytes: PhotoUpload.defaultMaximumBytes))
        }
    }
}
