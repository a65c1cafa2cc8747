import XCTest

@testable import LocifyCore

final class ListParametersTests: XCTestCase {
    private enum Field: String, CaseIterable, Sendable {
        case name, distance
    }

    func testSortReadsAFieldAndADirection() throws {
        let byName = ListSort(Field.name)
        XCTAssertEqual(try ListSort.parse(nil, default: byName), byName)
        XCTAssertEqual(try ListSort.parse("", default: byName), byName)
        XCTAssertEqual(try ListSort<Field>.parse("-distance", default: byName), ListSort(.distance, descending: true))
        XCTAssertEqual(ListSort<Field>.allowedValues, ["name", "-name", "distance", "-distance"])
        XCTAssertThrowsError(try ListSort<Field>.parse("size", default: byName)) { error in
            XCTAssertEqual(
                error as? InvalidListSort, InvalidListSort(allowed: ["name", "-name", "distance", "-distance"]))
        }
    }

    func testPageSelectionAcceptsWholeNumbersFromOne() throws {
        XCTAssertEqual(try PageSelection.parse(page: nil, limit: nil), PageSelection(page: 1, limit: 15))
        XCTAssertEqual(try PageSelection.parse(page: " 3 ", limit: "100"), PageSelection(page: 3, limit: 100))
        XCTAssertEqual(try PageSelection.parse(page: nil, limit: nil, defaultLimit: 20).limit, 20)
        XCTAssertThrowsError(try PageSelection.parse(page: nil, limit: "101")) { error in
            XCTAssertEqual(error as? PageSelectionProblem, .limitTooBig(maximum: 100))
        }
        for (page, limit) in [("0", nil), ("-1", nil), ("two", nil), (nil, "0"), ("1000000001", nil)]
            as [(String?, String?)]
        {
            XCTAssertThrowsError(try PageSelection.parse(page: page, limit: limit), "\(page ?? "-") \(limit ?? "-")") {
                error in
                guard case .invalid(let failure) = error as? PageSelectionProblem else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.errors.count, 1)
            }
        }
        XCTAssertEqual(PageSelection(page: 3, limit: 10).window(total: 35).offset, 20)
    }

    func testLooseValuesReadAsPeopleAndOldClientsWriteThem() {
        XCTAssertEqual(LooseValue.integer(" 12 "), 12)
        XCTAssertEqual(LooseValue.integer("+7"), 7)
        XCTAssertNil(LooseValue.integer("1.5"))
        // JSON (and so the API's description) calls 1.0 an integer: the API fuzzing sends it for ids.
        XCTAssertEqual(LooseValue.integer("1.0"), 1)
        XCTAssertEqual(LooseValue.integer("-3.00"), -3)
        XCTAssertEqual(LooseValue.integer("12."), 12)
        XCTAssertNil(LooseValue.integer(".0"))
        XCTAssertNil(LooseValue.integer("1.05"))
        XCTAssertNil(LooseValue.integer("1000000000000000"), "16 digits are beyond the bound")
        XCTAssertEqual(LooseValue.integer("999999999999999"), 999_999_999_999_999)
        XCTAssertEqual(LooseValue.integer("-999999999999999"), -999_999_999_999_999)
        XCTAssertNil(LooseValue.integer("-9223372036854775808"), "the smallest Int has no magnitude of its own")
        XCTAssertNil(LooseValue.bounded(Int.min))
        XCTAssertNil(LooseValue.bounded(Int.max))
        for yes in ["1", "true", "ON", " yes "] { XCTAssertEqual(LooseValue.boolean(yes), true, yes) }
        for no in ["0", "false", "Off", "no", ""] { XCTAssertEqual(LooseValue.boolean(no), false, no) }
        XCTAssertNil(LooseValue.boolean("maybe"))
        var problems: [FieldError] = []
        XCTAssertNil(LooseValue.integer("abc", field: "birthdate_day", label: "Birthday day", problems: &problems))
        XCTAssertNil(LooseValue.integer("  ", field: "birthdate_year", label: "Birth year", problems: &problems))
        XCTAssertEqual(problems, [FieldError(field: "birthdate_day", message: "Birthday day must be a whole number.")])
    }

    func testAValueOfTheWrongTypeIsReportedOnce() {
        let today = CalendarDate(year: 2026, month: 11, day: 22)!
        let typeError = LooseValue.notAnInteger(field: "birthdate_day", label: "Birthday day")
        let draft = ContactDraft(firstName: nil, birthdateMonth: 5)
        XCTAssertThrowsError(try draft.validated(today: today, genders: [], typeErrors: [typeError])) { error in
            XCTAssertEqual(
                (error as? ValidationFailure)?.messages,
                [
                    "Birthday day must be a whole number.", "First name is required.",
                ])
        }
        XCTAssertThrowsError(
            try ContactDraft(firstName: "Ada").validated(today: today, genders: [], typeErrors: [typeError])
        ) {
            error in
            XCTAssertEqual((error as? ValidationFailure)?.errors, [typeError], "a type error alone still fails")
        }
    }
}
