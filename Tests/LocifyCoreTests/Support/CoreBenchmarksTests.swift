import LocifyBenchmarks
import XCTest

final class CoreBenchmarksTests: XCTestCase {
    func testTheBenchmarkMeasuresEveryPart() {
        // Not a timing test: it checks that `locify bench` measures what it says, on tiny loops.
        let results = CoreBenchmarks.run(scale: 0.001)
        XCTAssertEqual(
            results.map { $0.name.components(separatedBy: " (").first ?? "" },
            [
                "gazetteer load", "geocoder searches", "reverse look-ups", "address formats", "address validations",
                "next reminder occurrences", "basemap tiles rendered",
            ])
        XCTAssertTrue(results.allSatisfy { $0.value > 0 && $0.value.isFinite })
        XCTAssertEqual(results.first?.name, "gazetteer load (170391 places)")
    }
}
