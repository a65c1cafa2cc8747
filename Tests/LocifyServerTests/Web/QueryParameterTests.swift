import XCTest

@testable import LocifyServer

/// The query string as the routes read it: `+` and percent escapes decoded, the first value of a name
/// winning, and plain values (most of them) taken as they are.
final class QueryParameterTests: XCTestCase {
    func testQueryStringsDecodeLikeForms() {
        XCTAssertEqual(
            URLEncodedPairs.firstValues(in: "page=2&limit=15&query=Ada+L%C3%B6we&page=3&flag&empty="),
            ["page": "2", "limit": "15", "query": "Ada Löwe", "flag": "", "empty": ""])
        XCTAssertEqual(URLEncodedPairs.firstValues(in: "q=100%25+sure&a%5Bb%5D=1"), ["q": "100% sure", "a[b]": "1"])
        // A broken escape spoils only its own pair's value.
        XCTAssertEqual(URLEncodedPairs.firstValues(in: "q=%E0%A4%A&page=2"), ["q": "", "page": "2"])
        XCTAssertEqual(URLEncodedPairs.firstValues(in: ""), [:])
    }
}
