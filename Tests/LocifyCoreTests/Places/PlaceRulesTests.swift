import XCTest

@testable import LocifyCore

final class PlaceRulesTests: XCTestCase {
    func testADraftReportsEveryProblemAtOnce() throws {
        XCTAssertThrowsError(try PlaceDraft().validated()) { error in
            let failure = error as? ValidationFailure
            XCTAssertEqual(Set(failure?.errors.map(\.field) ?? []), ["name", "latitude", "longitude", "category_id"])
        }
        XCTAssertThrowsError(
            try PlaceDraft(
                name: "x", latitude: 90.5, longitude: -180.5, notes: String(repeating: "n", count: 10_001),
                categoryID: 1
            )
            .validated()
        ) { error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.messages,
                [
                    "Notes must be at most 10000 characters.", "Latitude must be between -90 and 90.",
                    "Longitude must be between -180 and 180.",
                ])
        }
        let (fields, category) = try PlaceDraft(
            name: "  Louvre ", address: " ", latitude: 48.86, longitude: 2.34, notes: "Art", categoryID: 3,
            isFavorite: true
        ).validated()
        XCTAssertEqual(fields.name, "Louvre")
        XCTAssertNil(fields.address)
        XCTAssertEqual(category, 3)
        XCTAssertTrue(fields.isFavorite)
        XCTAssertEqual(fields.searchKey, "louvre art")
    }

    func testCategoryNamesAreUniqueIgnoringCase() throws {
        XCTAssertEqual(PlaceCategory.defaults, ["Restaurant", "Cafe", "Tourist Attraction", "Other"])
        XCTAssertEqual(try PlaceCategory.validatedName(" Bars ", existing: PlaceCategory.defaults), "Bars")
        XCTAssertThrowsError(try PlaceCategory.validatedName("cafe", existing: PlaceCategory.defaults))
        XCTAssertThrowsError(try PlaceCategory.validatedName("   ", existing: []))
        XCTAssertThrowsError(try PlaceCategory.validatedName(String(repeating: "x", count: 101), existing: []))
    }

    func testTheFilterReadsItsParametersAndWrapsTheAntimeridian() throws {
        let filter = try PlaceFilter(parameters: [
            "category_id": "4", "favorite": "1", "q": " Café ", "near": "48.85, 2.35", "within_km": "10",
        ])
        XCTAssertEqual(filter.categoryID, 4)
        XCTAssertEqual(filter.favorite, true)
        XCTAssertEqual(filter.text, "cafe")
        XCTAssertEqual(filter.near, Coordinate(latitude: 48.85, longitude: 2.35))
        XCTAssertEqual(filter.boxes.count, 1)
        let pacific = try PlaceFilter(parameters: ["bbox": "170,-20,-170,-10"])
        let box = try XCTUnwrap(pacific.box)
        XCTAssertTrue(box.crossesAntimeridian)
        XCTAssertTrue(box.contains(Coordinate(latitude: -15, longitude: 179)))
        XCTAssertTrue(box.contains(Coordinate(latitude: -15, longitude: -175)))
        XCTAssertFalse(box.contains(Coordinate(latitude: -15, longitude: 0)))
        XCTAssertThrowsError(try PlaceFilter(parameters: ["within_km": "3", "bbox": "x", "near": "1,2,3"])) { error in
            XCTAssertEqual(Set((error as? ValidationFailure)?.errors.map(\.field) ?? []), ["bbox", "near"])
        }
        // Without near there is nothing to measure from: within_km filters nothing.
        let unmeasured = try PlaceFilter(parameters: ["within_km": "3"])
        XCTAssertNil(unmeasured.withinKilometers)
        XCTAssertTrue(unmeasured.contains(Coordinate(latitude: 80, longitude: 170)))
        XCTAssertEqual(LooseValue.decimal(" -48.5\t"), -48.5)
        XCTAssertEqual(LooseValue.decimal(".5"), 0.5)
        XCTAssertEqual(LooseValue.decimal("7."), 7)
        for text in ["1e1", "0x10", "inf", "nan", "", "-", ".", "1.2.3", "+-1", "1 2"] {
            XCTAssertNil(LooseValue.decimal(text), text)
        }
    }
}
