import Foundation
import XCTVapor

@testable import LocifyServer

/// A multipart body whose header names hold bytes of 128 or more crashed MultipartKit's parser, and with
/// it the server (found by the API fuzzer). Every multipart route now answers it as unreadable.
final class MultipartSafetyTests: XCTestCase {
    private let boundary = "db9f0ffc5a029c631adbd58339d77829"

    private var crashing: ByteBuffer {
        var body = ByteBuffer(string: "--\(boundary)\r\n3")
        body.writeBytes([0xC2, 0xAA, 0xC3, 0x9C, 0xF1, 0x84, 0x9A, 0x97])
        body.writeString("zH--\(boundary)--\r\n")
        return body
    }

    func testHeaderNamesMustBeASCIIButValuesMayBeUTF8() {
        let bytes = Array(boundary.utf8)
        XCTAssertFalse(CheckedFormDataDecoder.headerNamesAreASCII(Array(crashing.readableBytesView), boundary: bytes))
        let named = Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"Café.gpx\"\r\n\r\nnaïve ünïcode body\r\n--\(boundary)--\r\n"
                .utf8)
        XCTAssertTrue(CheckedFormDataDecoder.headerNamesAreASCII(named, boundary: bytes))
        let secondPart = Array(
            "--\(boundary)\r\nA: b\r\n\r\nx\r\n--\(boundary)\r\nNämé: v\r\n\r\ny\r\n--\(boundary)--\r\n".utf8)
        XCTAssertFalse(CheckedFormDataDecoder.headerNamesAreASCII(secondPart, boundary: bytes))
    }

    func testEveryMultipartRouteRefusesTheBodyThatCrashedTheParser() async throws {
        try await forEachDatabase { app, _, _ in
            let account = try await app.makeAccount()
            var headers = account.bearer
            headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
            for path in ["/api/places/import", "/api/photos"] {
                let response = try await app.send(.POST, path, headers: headers, body: crashing)
                XCTAssertEqual(response.status, .badRequest, "\(path): \(response.text)")
                XCTAssertTrue(response.text.contains("multipart form"), response.text)
            }
            // The web's CSRF check reads the form too: refused, and the server still answers.
            let browser = WebClient(app: app)
            try await browser.register()
            let web = try await browser.send(
                .POST, "/settings/import", bytes: crashing, contentType: "multipart/form-data; boundary=\(boundary)")
            XCTAssertEqual(web.status, .forbidden, web.text)
            let health = try await app.send(.GET, "/health")
            XCTAssertEqual(health.status, .ok)
        }
    }
}
