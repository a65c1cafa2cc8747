import Foundation
import XCTest

@testable import LocifyAPI

/// The encoder's output, parsed back by Foundation, gives back what went in, for strings built to
/// trip an escaper: control characters, quotes, backslashes, U+2028/2029, combining marks, emoji.
final class OrderedJSONEncoderFuzzTests: XCTestCase {
    private struct Sample: Encodable {
        var text: String
        var list: [String]
        var nested: [String: String]
        @Nullable var maybe: String?
        var number: Int
        var flag: Bool
    }

    /// A deterministic generator, so a failure names its seed and can be replayed.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let tricky: [Unicode.Scalar] = [
        "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", "\u{2028}",
        "\u{2029}", "\u{2027}", "\u{202A}", "\u{E2}", "\u{301}", "\u{308}", "\u{1F600}", "\u{1F469}", "\u{200D}",
        "\u{1F4BB}", "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}", "é", "ß", "Ж", "中", "a", " ", "0",
    ]

    private func randomString(using generator: inout SplitMix) -> String {
        let length = Int.random(in: 0...24, using: &generator)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            if Bool.random(using: &generator) {
                scalars.append(Self.tricky.randomElement(using: &generator) ?? "a")
            } else if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &generator)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    func testRandomStringsSurviveARoundTripThroughFoundation() throws {
        for seed in UInt64(1)...2_000 {
            var generator = SplitMix(state: seed)
            let sample = Sample(
                text: randomString(using: &generator),
                list: (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomString(using: &generator) },
                nested: [randomString(using: &generator): randomString(using: &generator)],
                maybe: Bool.random(using: &generator) ? nil : randomString(using: &generator),
                number: Int.random(in: Int.min...Int.max, using: &generator), flag: Bool.random(using: &generator))
            let data = try OrderedJSONEncoder().encode(sample)
            let parsed = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: data) as? [String: Any],
                "seed \(seed): \(String(decoding: data, as: UTF8.self))")
            XCTAssertEqual(parsed["text"] as? String, sample.text, "seed \(seed)")
            XCTAssertEqual(parsed["list"] as? [String], sample.list, "seed \(seed)")
            XCTAssertEqual(parsed["nested"] as? [String: String], sample.nested, "seed \(seed)")
            XCTAssertEqual(parsed["maybe"] as? String, sample.maybe, "seed \(seed)")
            XCTAssertEqual((parsed["number"] as? NSNumber)?.int64Value, Int64(sample.number), "seed \(seed)")
            let text = String(decoding: data, as: UTF8.self)
            // Raw control characters and the JavaScript line breaks never appear unescaped.
            XCTAssertFalse(
                text.unicodeScalars.contains { $0.value < 0x20 || ["\u{2028}", "\u{2029}", "\u{FEFF}"].contains($0) },
                "seed \(seed)"
            )
            XCTAssertEqual(Array(text.utf8.prefix(9)), Array(#"{"text":""#.utf8), "keys in declaration order")
        }
    }

    func testNestingClosesWhereTheTypesEnd() throws {
        struct Inner: Encodable {
            var a = [1, 2]
            var b: [String: [Int]] = ["x": []]
        }
        struct Outer: Encodable {
            var first = Inner()
            var empty: [Inner] = []
            var many = [Inner(), Inner()]
            var last = "end"
        }
        struct Silent: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        struct Manual: Encodable {
            enum Keys: String, CodingKey { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(1, forKey: .b)
                var list = container.nestedUnkeyedContainer(forKey: .b)
                try list.encode("x")
                try list.encodeNil()
                try container.encode(true, forKey: .c)
            }
        }
        let inner = #"{"a":[1,2],"b":{"x":[]}}"#
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode(Outer()), as: UTF8.self),
            #"{"first":\#(inner),"empty":[],"many":[\#(inner),\#(inner)],"last":"end"}"#)
        XCTAssertEqual(String(decoding: try OrderedJSONEncoder().encode([Silent()]), as: UTF8.self), "[{}]")
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode(Manual()), as: UTF8.self),
            #"{"a":{"b":1},"b":["x",null],"c":true}"#)
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode([Int.min, 0, Int.max]), as: UTF8.self),
            "[\(Int.min),0,\(Int.max)]")
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode(["a\u{2028}b"]), as: UTF8.self), #"["a\u2028b"]"#)
        XCTAssertThrowsError(try OrderedJSONEncoder().encode(Outer2())) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["inner", "value"])
        }
    }

    func testEveryNumberTypeAndFoundationValueIsWrittenOnce() throws {
        struct Numbers: Encodable {
            var small: UInt8 = 255
            var signed: [Int8] = [-128, 0, 127]
            var wide: [Int64] = [Int64.min, Int64.max]
            var unsigned: [UInt64] = [UInt64.max]
            var mixed: (Int16, Int32, UInt16, UInt32, UInt) = (-3, 4, 5, 6, 7)
            var float: Float = 1.5
            var floats: [Float] = [0.25]
            var double = 2.75
            var optionalDouble: Double? = 3.5
            var date = Date(timeIntervalSince1970: 1_714_817_165)
            var url = URL(string: "https://example.com/a?b=c")
            var decimal = Decimal(string: "12.50")

            enum CodingKeys: String, CodingKey {
                case small, signed, wide, unsigned, mixed, float, floats, double, optionalDouble, date, url, decimal
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(small, forKey: .small)
                try container.encode(signed, forKey: .signed)
                try container.encode(wide, forKey: .wide)
                try container.encode(unsigned, forKey: .unsigned)
                var tuple = container.nestedUnkeyedContainer(forKey: .mixed)
                try tuple.encode(mixed.0)
                try tuple.encode(mixed.1)
                try tuple.encode(mixed.2)
                try tuple.encode(mixed.3)
                try tuple.encode(mixed.4)
                try container.encode(float, forKey: .float)
                try container.encode(floats, forKey: .floats)
                try container.encode(double, forKey: .double)
                try container.encodeIfPresent(optionalDouble, forKey: .optionalDouble)
                try container.encode(date, forKey: .date)
                try container.encode(url, forKey: .url)
                try container.encode(decimal, forKey: .decimal)
            }
        }
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode(Numbers()), as: UTF8.self),
            #"{"small":255,"signed":[-128,0,127],"wide":[-9223372036854775808,9223372036854775807],"#
                + #""unsigned":[18446744073709551615],"mixed":[-3,4,5,6,7],"float":1.5,"floats":[0.25],"double":2.75,"#
                + #""optionalDouble":3.5,"date":"2024-05-04T10:06:05Z","url":"https://example.com/a?b=c","decimal":12.5}"#
        )
        XCTAssertThrowsError(try OrderedJSONEncoder().encode([Float.nan]))
    }

    private struct Outer2: Encodable {
        struct Holder: Encodable { var value = Double.infinity }
        var inner = Holder()
    }
}
