import MultipartKit
import NIOCore
import NIOHTTP1
import Vapor

/// Vapor's multipart decoder behind a check: MultipartKit's parser indexes a 128-entry table with each
/// byte of a part's header names, so one byte of 128 or more there stops the whole server (found by the
/// API fuzzer). Every multipart body, the CSRF token's read included, is decoded through here, and a
/// body with such a byte is refused as unreadable before the parser sees it.
struct CheckedFormDataDecoder: ContentDecoder {
    private let decoder = FormDataDecoder()

    func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try decode(D.self, from: body, headers: headers, userInfo: [:])
    }

    func decode<D: Decodable>(
        _ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> D {
        if let boundary = headers.contentType?.parameters["boundary"],
            !Self.headerNamesAreASCII(Array(body.readableBytesView), boundary: Array(boundary.utf8))
        {
            throw UnreadableUpload()
        }
        return try decoder.decode(D.self, from: body, headers: headers, userInfo: userInfo)
    }

    /// Whether every header name of every part (the text before `:` on each line after a delimiter line,
    /// up to the blank line) is ASCII. Header values may hold UTF-8 (file names) and are not looked at.
    /// Wherever the delimiter stands counts, which checks more than the parser reads, never less.
    static func headerNamesAreASCII(_ bytes: [UInt8], boundary: [UInt8]) -> Bool {
        let delimiter = Array("--".utf8) + boundary
        let newline = UInt8(ascii: "\n")
        func endOfLine(from start: Int) -> Int? { bytes[start...].firstIndex(of: newline) }
        var index = 0
        while let found = firstIndex(of: delimiter, in: bytes, from: index) {
            guard var line = endOfLine(from: found + delimiter.count).map({ $0 + 1 }) else { return true }
            while line < bytes.count {
                var position = line
                while position < bytes.count,
                    ![UInt8(ascii: ":"), UInt8(ascii: "\r"), newline].contains(bytes[position])
                {
                    if bytes[position] >= 0x80 { return false }
                    position += 1
                }
                // An empty line ends the headers.
                if position == line { break }
                guard let next = endOfLine(from: position) else { return true }
                line = next + 1
            }
            index = line
        }
        return true
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        var position = start
        while position <= bytes.count - pattern.count {
            if bytes[position] == pattern[0], bytes[position..<position + pattern.count].elementsEqual(pattern) {
                return position
            }
            position += 1
        }
        return nil
    }
}

/// A multipart body (a photo, a places file) that cannot be read as a form.
struct UnreadableUpload: AppFailure, Equatable {
    var kind: FailureKind { .malformedBody }
    var messages: [String] { ["The upload could not be read as a multipart form."] }
}
