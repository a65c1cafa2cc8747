import Foundation
import XCTest

@testable import LocifyAPI

/// `JSONValue(parsing:)` answers what `JSONDecoder` answers for the same bytes, and refuses what it
/// refuses: the sync push reads its body with it.
final class JSONValueParsingTests: XCTestCase {
    private func decoded(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private func parsed(_ text: String) -> JSONValue? {
        try? JSONValue(parsing: Array(text.utf8))
    }

    func testValuesAreReadAsJSONDecoderReadsThem() throws {
        let documents = [
            "null", "true", "false", "0", "-0", "7", "-12", "5.0", "5.5", "-0.25", "1e2", "1E+2", "2.5e-3", "1e300",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "12345678901234567890",
            #""""#, #""plain text""#, #""é ß Ж 中 😀""#, #""quote \" backslash \\ slash \/""#,
            #""\b\f\n\r\t""#, #""\u0041\u00e9\u4e2d""#, #""\ud83d\ude00 smile""#, #""\u0000 nul""#,
            "[]", "{}", "[1, 2.5, \"three\", null, true, [false], {\"k\": []}]",
            #"{"client_id": "phone", "mutations": [{"id": 1, "type": "contact", "op": "create", "uuid": "#
                + #""6a2f41a3-c54c-fce8-32d2-0324e1c32e22", "base_revision": null, "fields": {"first_name": "Ann", "#
                + #""is_starred": true, "birthdate_year": 1990, "latitude": 48.8566}}]}"#,
            " \t\r\n{ \"spaced\" :\n[ 1 , 2 ] } \n",
            #"{"a": {"b": {"c": {"d": [[[["deep"]]]]}}}}"#,
            "[1,]", "{\"a\": 1 , }",
        ]
        for document in documents {
            let expected = try XCTUnwrap(decoded(document), "JSONDecoder refused \(document)")
            XCTAssertEqual(parsed(document), expected, document)
        }
        XCTAssertEqual(parsed("5.0"), .integer(5))
        XCTAssertEqual(parsed("5.5"), .number(5.5))
        XCTAssertEqual(parsed(#""\ud83d\ude00""#), .string("😀"))
    }

    func testMalformedJSONIsRefusedAsJSONDecoderRefusesIt() {
        let documents = [
            "", " ", "nul", "tru", "True", "01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "NaN", "Infinity",
            "[,]", "[1,,]", "[1 2]", "{\"a\" 1}", "{,}", "{a: 1}", "{'a': 1}", "[", "{", "\"open", "\"bad \\x escape\"",
            "\"\\u12\"", "\"\\u12G4\"", "\"tab\there\"", "\"line\nbreak\"", "[1] [2]", "{} x", "1e400",
        ]
        for document in documents {
            XCTAssertNil(decoded(document), "JSONDecoder read \(document.debugDescription)")
            XCTAssertThrowsError(try JSONValue(parsing: Array(document.utf8)), document.debugDescription) { error in
                guard case DecodingError.dataCorrupted = error else {
                    return XCTFail("\(document.debugDescription): \(error)")
                }
            }
        }
    }

    func testLoneSurrogatesAndTextThatIsNotUTF8AreRefused() {
        for document in [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#] {
            XCTAssertThrowsError(try JSONValue(parsing: Array(document.utf8)), document)
        }
        XCTAssertThrowsError(try JSONValue(parsing: [0x22, 0xFF, 0xFE, 0x22]))
        XCTAssertThrowsError(try JSONValue(parsing: [0x22, 0xC3, 0x22]))
    }

    func testNestingDeeperThanTheLimitIsRefusedWithoutExhaustingTheStack() {
        let limit = JSONValue.maximumDepth
        XCTAssertNoThrow(
            try JSONValue(
                parsing: Array((String(repeating: "[", count: limit) + String(repeating: "]", count: limit)).utf8)))
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        XCTAssertThrowsError(try JSONValue(parsing: Array(tooDeep.utf8)))
        XCTAssertThrowsError(try JSONValue(parsing: Array(String(repeating: "[", count: 100_000).utf8)))
    }

    /// Random documents written by the encoder come back equal, whatever their strings hold.
    func testRandomDocumentsComeBackAsTheyWereWritten() throws {
        var generator = SystemRandomNumberGenerator()
        let scalars: [Unicode.Scalar] = ["\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "é", "😀", "a"]
        func randomValue(depth: Int) -> JSONValue {
            switch Int.random(in: 0...(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
            case 3: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) + 0.5)
            case 4:
                let count = Int.random(in: 0...12, using: &generator)
                return .string(String(String.UnicodeScalarView((0..<count).map { _ in scalars.randomElement()! })))
            case 5:
                return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1) })
            default:
                var members: [String: JSONValue] = [:]
                for index in 0..<Int.random(in: 0...4, using: &generator) {
                    members["key\(index)\(scalars.randomElement()!)"] = randomValue(depth: depth + 1)
                }
                return .object(members)
            }
        }
        for _ in 0..<500 {
            let value = randomValue(depth: 0)
            let bytes = try OrderedJSONEncoder().encode(value)
            XCTAssertEqual(try JSONValue(parsing: bytes), value)
            XCTAssertEqual(try JSONValue(parsing: bytes), try JSONDecoder().decode(JSONValue.self, from: bytes))
        }
    }
}
