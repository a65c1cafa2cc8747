import XCTest

@testable import LocifyCore

final class CoordinateTests: XCTestCase {
    func testCoordinateRanges() {
        XCTAssertTrue(Coordinate.isLatitude(-90) && Coordinate.isLatitude(90))
        XCTAssertFalse(
            Coordinate.isLatitude(90.000_1) || Coordinate.isLatitude(.nan) || Coordinate.isLatitude(.infinity))
        XCTAssertTrue(Coordinate.isLongitude(-180) && Coordinate.isLongitude(180))
        XCTAssertFalse(Coordinate.isLongitude(-180.000_1) || Coordinate.isLongitude(.nan))
        XCTAssertEqual(Coordinate(validLatitude: 48.85, longitude: 2.35), Coordinate(latitude: 48.85, longitude: 2.35))
        XCTAssertNil(Coordinate(validLatitude: 91, longitude: 0))
        XCTAssertNil(Coordinate(validLatitude: nil, longitude: 0))
    }
}
