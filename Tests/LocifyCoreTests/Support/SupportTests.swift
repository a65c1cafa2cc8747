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
        XCTAssertEqual(beyond.pageBefore, 8, "Laravel's: the page before the one asked for")
        XCTAssertNil(PageWindow(page: 1, limit: 10, total: 35).pageBefore)
        XCTAssertEqual(PageWindow(page: -3, limit: 0, total: 5).page, 1)
    }

    func testTimestampsHaveWholeSecondsInUTC() {
        XCTAssertEqual(Timestamp.string(Date(timeIntervalSince1970: 1_714_817_165.789)), "2024-05-04T10:06:05Z")
        XCTAssertEqual(Timestamp.day(Date(timeIntervalSince1970: 1_714_867_199)), "2024-05-04", "the UTC day")
        XCTAssertTrue(HashID.encode(1).hasPrefix("h:"))
        XCTAssertNotEqual(HashID.encode(1), HashID.encode(2))
    }
}

final class TimestampTests: XCTestCase {
    /// Foundation switches to the Julian calendar before 15 October 1582; ISO 8601 (and Locify) stays
    /// Gregorian, so the two are compared from then on, to the year 9999.
    func testTimestampsMatchFoundationsISO8601FormatterSinceTheGregorianReform() {
        var generator = SystemRandomNumberGenerator()
        let reform = -12_219_292_800.0
        let fixed: [Double] = [0, -1, -86_400, -86_401, 951_782_400, 4_102_444_799, 253_402_300_799, reform, 1.5, -0.5]
        let random = (0..<20_000).map { _ in Double.random(in: reform...253_402_300_799, using: &generator) }
        for seconds in fixed + random {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(
                Timestamp.string(date), date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)), "\(seconds)")
        }
    }

    func testCalendarDatesPadLikePrintf() {
        for (year, month, day) in [(1, 1, 1), (99, 12, 31), (1992, 2, 29), (2024, 10, 5), (12345, 1, 9)] {
            XCTAssertEqual(
                CalendarDate.isoDate(year: year, month: month, day: day),
                String(format: "%04d-%02d-%02d", year, month, day))
        }
    }
}

final class CanonicalUUIDTests: XCTestCase {
    func testCanonicalTextReadsAsFoundationReadsIt() {
        for _ in 0..<2_000 {
            let uuid = UUID()
            XCTAssertEqual(UUID(canonicalText: uuid.uuidString), uuid)
            XCTAssertEqual(UUID(canonicalText: uuid.uuidString.lowercased()), uuid)
            XCTAssertEqual(uuid.lowercasedText, uuid.uuidString.lowercased())
        }
        for bad in [
            "", "not-a-uuid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
            "E621E1F8C36C495A93FC0C247A3E6E5F0000", "E621E1F8-C36C-495A-93FC+0C247A3E6E5F",
        ] {
            XCTAssertNil(UUID(canonicalText: bad), bad)
            XCTAssertNil(UUID(uuidString: bad), bad)
        }
    }
}

final class HashIDTests: XCTestCase {
    /// The first version, kept as the reference: ids handed to clients must never change.
    private func reference(_ id: Int) -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var value = UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15 ^ 0x5bd1_e995
        var characters: [Character] = []
        repeat {
            characters.append(alphabet[Int(value % UInt64(alphabet.count))])
            value /= UInt64(alphabet.count)
        } while value > 0 && characters.count < 8
        return "h:" + String(characters)
    }

    func testHashIDsAreStable() {
        for id in Array(-5...20_000) + [Int.max, Int.min, 1 << 40] {
            XCTAssertEqual(HashID.encode(id), reference(id), "\(id)")
        }
    }
}

final class ValidationFailureReasonTests: XCTestCase {
    /// Input to fix wins over a clash, and something missing over a clash: the API answers 422, 404 and
    /// 409 by it.
    func testTheFailuresReasonIsItsMostPressingProblem() {
        let invalid = FieldError(field: "name", message: "Name is required.")
        let conflict = FieldError(field: "name", message: "Taken.", reason: .conflict)
        let missing = FieldError(field: "category_id", message: "Not yours.", reason: .unknownReference)
        XCTAssertEqual(ValidationFailure([conflict]).reason, .conflict)
        XCTAssertEqual(ValidationFailure([conflict, missing]).reason, .unknownReference)
        XCTAssertEqual(ValidationFailure([conflict, missing, invalid]).reason, .invalid)
        XCTAssertEqual(ValidationFailure([]).reason, .invalid)
    }

    /// A rule across fields that fails because of a value kept from the stored address is a conflict.
    func testAnAddressRuleBrokenByAKeptValueIsAConflict() {
        let draft = PostalAddressDraft(street: "Unter den Linden 1", postalCode: "ABC", country: "DE")
        XCTAssertThrowsError(try draft.validated()) {
            XCTAssertEqual(($0 as? ValidationFailure)?.reason, .invalid)
        }
        XCTAssertThrowsError(try draft.validated(storedFields: ["country"])) {
            XCTAssertEqual(($0 as? ValidationFailure)?.reason, .conflict)
        }
        let empty = PostalAddressDraft()
        XCTAssertThrowsError(try empty.validated(storedFields: ["city"])) {
            XCTAssertEqual(($0 as? ValidationFailure)?.reason, .conflict)
        }
        XCTAssertThrowsError(try empty.validated(storedFields: ["name"])) {
            XCTAssertEqual(($0 as? ValidationFailure)?.reason, .invalid, "the kept label plays no part")
        }
    }
}
