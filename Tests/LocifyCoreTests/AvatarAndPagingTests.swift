import XCTest
@testable import LocifyCore

final class AvatarAndPagingTests: XCTestCase {
    func testMonicaInitialsTransliterate() {
        XCTAssertEqual(Avatar.monicaInitials(of: "Zoë Müller"), "ZM")
        XCTAssertEqual(Avatar.monicaInitials(of: "Дмитрий Иванов"), "DI")
        XCTAssertEqual(Avatar.monicaInitials(of: "Jean-Luc Picard"), "JP")
        XCTAssertEqual(Avatar.monicaInitials(of: "Ærø 3rd"), "A3")
        XCTAssertEqual(Avatar.monicaInitials(of: "  "), "")
    }

    func testDisplayInitialsKeepTheirScript() {
        XCTAssertEqual(Avatar.displayInitials(of: "Дмитрий Иванов"), "ДИ")
        XCTAssertEqual(Avatar.displayInitials(of: "王 芳"), "王芳")
        XCTAssertEqual(Avatar.displayInitials(of: "ada mary lovelace"), "AL")
        XCTAssertEqual(Avatar.displayInitials(of: "👩‍🚀 Sally"), "👩‍🚀S")
        XCTAssertEqual(Avatar.displayInitials(of: "Cher"), "C")
        XCTAssertEqual(Avatar.displayInitials(of: ""), "?")
    }

    func testDefaultColoursAreMonicasAndStable() {
        XCTAssertEqual(Avatar.defaultColors, ["#fdb660", "#93521e", "#bd5067", "#b3d5fe", "#ff9807", "#709512", "#5f479a", "#e5e5cd"])
        let uuid = UUID(uuidString: "E1AE586B-DCBD-4472-B4AF-479758984022")!
        XCTAssertEqual(Avatar.defaultColor(for: uuid), Avatar.defaultColor(for: uuid))
        let spread = Set((0..<200).map { _ in Avatar.defaultColor(for: UUID()) })
        XCTAssertEqual(spread.count, 8, "every colour gets used")
    }

    func testTextColourMeetsContrast() {
        XCTAssertEqual(Avatar.textColor(on: "#e5e5cd"), "#000000")
        XCTAssertEqual(Avatar.textColor(on: "#5f479a"), "#ffffff")
        XCTAssertEqual(Avatar.textColor(on: "#93521e"), "#ffffff")
        XCTAssertEqual(Avatar.textColor(on: "nonsense"), "#000000")
    }

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
