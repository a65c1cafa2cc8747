import XCTest

@testable import LocifyCore

final class SupportTests: XCTestCase {
    func testSearchKeysFoldCaseAndAccents() {
        XCTAssertEqual(TextFolding.searchKey(["  Jürgen ", nil, "KLOPP", ""]), "jurgen klopp")
        XCTAssertEqual(TextFolding.searchKey(["Zürich"]), TextFolding.searchKey(["zurich"]))
    }

    func testPageWindow() {
        let middle = PageWindow(page: 2, limit: 10, total: 35)
        XCTAssertEqual(middle.offset, 10)
        XCTAssertEqual(middle.lastPage, 4)
        XCTAssertEqual(middle.from, 11)
        XCTAssertEqual(middle.to, 20)
        XCTAssertEqual(middle.previousPage, 1)
        XCTAssertEqual(middle.nextPage, 3)
        let last = PageWindow(page: 4, limit: 10, total: 35)
        XCTAssertEqual(last.to, 35)
        XCTAssertNil(last.nextPage)
        let empty = PageWindow(page: 1, limit: 15, total: 0)
        XCTAssertEqual(empty.lastPage, 1)
        XCTAssertNil(empty.from)
        XCTAssertNil(empty.to)
        let beyond = PageWindow(page: 9, limit: 10, total: 35)
        XCTAssertNil(beyond.from)
        XCTAssertEqual(beyond.previousPage, 4, "previous from beyond the end goes to the last page")
        XCTAssertEqual(PageWindow(page: -3, limit: 0, total: 5).page, 1)
    }

    func testTimestampsHaveWholeSecondsInUTC() {
        XCTAssertEqual(Timestamp.string(Date(timeIntervalSince1970: 1_714_817_165.789)), "2024-05-04T10:06:05Z")
        XCTAssertTrue(HashID.encode(1).hasPrefix("h:"))
        XCTAssertNotEqual(HashID.encode(1), HashID.encode(2))
    }
}
