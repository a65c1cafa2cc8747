import XCTest

@testable import LocifyCore

final class AvatarTests: XCTestCase {
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
        XCTAssertEqual(Avatar.displayInitials(of: "محمد علي"), "مع")
        XCTAssertEqual(Avatar.displayInitials(of: "😀"), "😀")
        XCTAssertEqual(Avatar.displayInitials(of: "ada mary lovelace"), "AL")
        XCTAssertEqual(Avatar.displayInitials(of: "👩‍🚀 Sally"), "👩‍🚀S")
        XCTAssertEqual(Avatar.displayInitials(of: "Cher"), "C")
        XCTAssertEqual(Avatar.displayInitials(of: ""), "?")
    }

    func testDefaultColoursAreMonicasAndStable() {
        XCTAssertEqual(
            Avatar.defaultColors,
            ["#fdb660", "#93521e", "#bd5067", "#b3d5fe", "#ff9807", "#709512", "#5f479a", "#e5e5cd"])
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
}
