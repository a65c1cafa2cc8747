import XCTest

@testable import LocifyCore

final class GzipTests: XCTestCase {
    /// Written by Python's gzip module at level 9 (a file name in the header; fixed Huffman codes).
    let fixed = "H4sICAAAAAAC/2FyZWEuYmluAMtIzcnJV8hAJ3UUfPKTM9MqFQFI+GyWIAAAAA=="
    /// The same for 700 words drawn at random from 19 (dynamic Huffman codes, long back-references).
    let dynamic = """
        H4sIAAAAAAAC/4VY21bcMAz8lfxaCKbdU9hAdqGHfn2Jbp4Zu/SFTRzr4pE0knlYb+1lfV22/Xpft/vyZ99flm29tx/78bm8vbf3tuxPT8+Xa1vul+f4YxK5aVu3n60UrEdbl4fQ+ns/frUjdhzt5XJ9/Hrd3++m77F9XLbmJnPt1o6Pry2ncC7Jp5BKe/lb2s3B1+f13JMuhh/pVqjI1zhlmDF5PhMClL+hMpx6Wj/243Jv/SH31cLt87qp5dyUtg08c8CeTCS/EZbusp8ywxOumHi36oukKZwoxGpzonZaCEFfshBRZFNXvtsO3ywBMtPnFpPnMOUeFzw3hQu0ngcsP0kWT1h4hkR6WYkQvnV75U8HXOGpB6oR26rRj/cOV/8TWtMzW8NYJpDumn02NRn2IZ3clAvHS+ow32qnb6HocVKOqxPd/SRal1Ls4kspLbFAAA4KSVaRsg/uQa1NU5tCmjBhfZQAO5j+CFW4pFkS4omQxT5NMQyyoSq+1wMwHJ8Ay4qxqIfiDUscT9kZCpBXeeisws4uZiO9PAU0QpOCDW3IXbwB2NMrUo5dNKpHErjMOVNmT2UkHBj51qyZgFhyxbUvkD0d1EKPd6lUh5QIt1jl1AINZdJIzx0ANMUEER3KZYBXmlcxKpE2kiBGnmOhuVs2vuPbXBV6L9mAfZoOM/YVo6L2PB6QiukpCQOUowVli1+ZW/+TfLptgB6hRnR1zqh3JiWmZSz3PDzWDY1MIxWYeIQEQTLpoWURn/FpkfBCX36iPkusUA7zDEg0AuGT3PUGCqzqOPXoEammA1KXvbHgeCq4dbIUrAbpKWsgsJrF6Y6OZ9OpWDJC4bNzTjODpkQ8KEJ5bkqIuUUgswLlcdaST9wkgbqGnCp/sQ8VN04asfnNtdQnJX8P62IRDwxzAU3EqRedgatAYkf0HAqgqZGLGANTC5cFzpqBKQawxgLGOpJZDRuDzH+cVjp/UiRh0JAeyKPP2Et9XSIqiT7eAzX03EAxhtimZchyT+E2UfMsDzoUqHDJpED0u7oBNhJHIBulUXHhD3MxJihTLfJdJSIPnDiy+bMY74MBJdDsbjFkYwIxZKemb+mGlZpg6nYhQty8etLVtVCodZxRieaVZwfAuMMR1fs1N2szR97p9YxTBAZqyxL3iykRoWYWy9OWi2WxqASb5z8mqWEERKAUbQnQ8L8VlIW75pAiVHaQrViiQyBQEyhnvqajUveZdnez/Rf7MiH9jhIAAA==
        """

    func testWhatIsWrittenStoredReadsBack() throws {
        for size in [0, 1, 70_000, 140_000] {
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) })
            XCTAssertEqual(try Gzip.decompressed(Gzip.stored(data)), data, "\(size) bytes")
        }
    }

    func testOthersCompressedMembersAreRead() throws {
        let small = try Gzip.decompressed(try XCTUnwrap(Data(base64Encoded: fixed)))
        XCTAssertEqual(String(decoding: small, as: UTF8.self), "hello hello hello hello, Locify!")
        let words = try Gzip.decompressed(
            try XCTUnwrap(Data(base64Encoded: dynamic, options: .ignoreUnknownCharacters)))
        XCTAssertEqual(words.count, 4_750)
        XCTAssertEqual(Gzip.crc32([UInt8](words)), 4_246_811_387)
        let text = String(decoding: words, as: UTF8.self)
        XCTAssertTrue(
            text.split(separator: " ").allSatisfy {
                "map area tile zoom offline device server basemap outline contact place reminder category favorite sync queue worker cache"
                    .split(separator: " ").contains($0)
            })
    }

    func testDamagedDataIsRefusedWithAReason() throws {
        var damaged = [UInt8](try XCTUnwrap(Data(base64Encoded: fixed)))
        damaged[damaged.count - 9] ^= 0xFF
        XCTAssertThrowsError(try Gzip.decompressed(Data(damaged)))
        XCTAssertThrowsError(try Gzip.decompressed(Data("plain text".utf8))) { error in
            XCTAssertEqual((error as? Gzip.ReadFailure)?.description, "not gzip data")
        }
        let cut = try XCTUnwrap(Data(base64Encoded: fixed)).prefix(30)
        XCTAssertThrowsError(try Gzip.decompressed(cut))
    }
}
