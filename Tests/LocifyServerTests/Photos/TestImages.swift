import Foundation
import XCTVapor

@testable import LocifyServer

/// Images with real headers (all `ImageInfo` reads), in every format Locify keeps.
enum TestImages {
    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    static func littleEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    /// A PNG header for `width`×`height`; `filler` bytes after it make distinct files or large ones.
    static func png(width: Int = 640, height: Int = 480, filler: Int = 0, seed: UInt8 = 0) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + Array("IHDR".utf8)
            + bigEndian(width, 4) + bigEndian(height, 4) + [8, 6, 0, 0, 0] + [0, 0, 0, seed]
            + [UInt8](repeating: seed, count: filler)
    }

    static let gif = Array("GIF89a".utf8) + littleEndian(320, 2) + littleEndian(200, 2) + [0, 0, 0]

    static let jpeg: [UInt8] =
        [0xFF, 0xD8] + [0xFF, 0xE0] + bigEndian(16, 2) + Array("JFIF".utf8) + [0] + Array(repeating: 0, count: 9)
        + [0xFF, 0xC0] + bigEndian(17, 2) + [8] + bigEndian(1080, 2) + bigEndian(1920, 2) + [3]
        + Array(repeating: 0, count: 9)

    static let webp: [UInt8] = {
        let body: [UInt8] =
            [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + littleEndian(400, 2) + littleEndian(300, 2) + [0, 0]
        return Array("RIFF".utf8) + littleEndian(body.count + 12, 4) + Array("WEBP".utf8) + Array("VP8 ".utf8)
            + littleEndian(body.count, 4) + body
    }()

    static let svg = Array(
        #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>"#.utf8)

    /// A multipart body with the file as `field` (`photo` unless said) and the other fields as given.
    static func multipart(
        _ bytes: [UInt8], field: String = "photo", filename: String = "me.png", type: String = "image/png",
        fields: [String: String] = [:]
    ) -> (body: ByteBuffer, contentType: String) {
        let boundary = "locify-photo-boundary"
        var body = ByteBuffer()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\nContent-Type: \(type)\r\n\r\n"
        )
        body.writeBytes(bytes)
        body.writeString("\r\n--\(boundary)--\r\n")
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}

extension Application {
    /// Uploads `bytes` as a multipart photo of `contactID` through the API.
    func uploadPhoto(
        _ bytes: [UInt8], contactID: Int, account: TestAccount, filename: String = "me.png"
    ) async throws -> XCTHTTPResponse {
        let (body, type) = TestImages.multipart(bytes, filename: filename, fields: ["contact_id": String(contactID)])
        var headers = account.bearer
        headers.replaceOrAdd(name: .contentType, value: type)
        return try await send(.POST, "/api/photos", headers: headers, body: body)
    }
}

/// Plain HTTP over a socket, for what a test client cannot send: a body shorter than its declared length.
enum RawHTTP {
    /// Sends `head` (request line and headers, without the blank line) and `body`, then reads what the
    /// server answers before it closes or a second passes.
    static func exchange(port: Int, head: String, body: [UInt8]) throws -> String {
        #if canImport(Glibc)
            let socketType = Int32(SOCK_STREAM.rawValue)
        #else
            let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw PostgresCluster.Failure(description: "no socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw PostgresCluster.Failure(description: "could not connect") }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array((head + "\r\n\r\n").utf8) + body
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
