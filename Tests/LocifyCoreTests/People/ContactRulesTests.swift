import XCTest

@testable import LocifyCore

final class ContactRulesTests: XCTestCase {
    let today = CalendarDate(year: 2024, month: 5, day: 4)!
    let genders = [
        Gender(id: 1, name: "Man", type: "M"), Gender(id: 2, name: "Woman", type: "F"),
        Gender(id: 3, name: "Rather not say", type: "O"),
    ]

    func testAValidDraftIsTrimmedAndNormalised() throws {
        let draft = ContactDraft(
            firstName: "  Zoë ", lastName: "Müller", nickname: " ", email: " Zoe@Example.COM ",
            birthdateDay: 29, birthdateMonth: 2, birthdateYear: 1992, genderID: 2, isStarred: true)
        let fields = try draft.validated(today: today, genders: genders)
        XCTAssertEqual(fields.firstName, "Zoë")
        XCTAssertNil(fields.nickname, "blank becomes absent")
        XCTAssertEqual(draft.normalizedEmail, "zoe@example.com")
        XCTAssertEqual(fields.birthdate, Birthdate(day: 29, month: 2, year: 1992))
        XCTAssertEqual(fields.gender, genders[1])
        XCTAssertEqual(fields.completeName, "Zoë Müller")
        XCTAssertEqual(fields.searchKey(), "zoe muller")
        XCTAssertEqual(
            fields.searchKey(fieldData: ["Zoe@Example.com", "+44 (0)20 7946-0000", "@zoé"]),
            "zoe muller zoe@example.com +44 (0)20 7946-0000 @zoe 4402079460000",
            "fields follow the names, a phone number's digits last")
    }

    func testEveryProblemIsReportedAtOnceWithItsField() {
        let draft = ContactDraft(
            firstName: nil, lastName: String(repeating: "a", count: 256), email: "nope", birthdateDay: 30,
            birthdateMonth: 2, genderID: 9)
        XCTAssertThrowsError(try draft.validated(today: today, genders: genders)) { error in
            let failure = error as? ValidationFailure
            XCTAssertEqual(
                failure?.errors.map(\.field), ["first_name", "last_name", "email", "gender_id", "birthdate_day"])
            XCTAssertEqual(failure?.message(for: "birthdate_day"), "That day does not exist in that month.")
        }
    }

    func testBirthdayRules() throws {
        // Feb 29 without a year is a real birthday; with a common year it is not.
        XCTAssertNotNil(
            try ContactDraft(firstName: "A", birthdateDay: 29, birthdateMonth: 2).validated(
                today: today, genders: genders
            ).birthdate)
        XCTAssertThrowsError(
            try ContactDraft(firstName: "A", birthdateDay: 29, birthdateMonth: 2, birthdateYear: 1991).validated(
                today: today, genders: genders))
        // Not in the future, and the month is required once a day is given.
        XCTAssertThrowsError(
            try ContactDraft(firstName: "A", birthdateDay: 5, birthdateMonth: 5, birthdateYear: 2024).validated(
                today: today, genders: genders))
        XCTAssertNotNil(
            try ContactDraft(firstName: "A", birthdateDay: 4, birthdateMonth: 5, birthdateYear: 2024).validated(
                today: today, genders: genders
            ).birthdate)
        XCTAssertThrowsError(
            try ContactDraft(firstName: "A", birthdateDay: 5).validated(today: today, genders: genders)
        ) { error in
            XCTAssertEqual((error as? ValidationFailure)?.errors.first?.field, "birthdate_month")
        }
        // is_birthdate_known=false wins over stray fields.
        XCTAssertNil(
            try ContactDraft(firstName: "A", isBirthdateKnown: false, birthdateDay: 1, birthdateMonth: 1).validated(
                today: today, genders: genders
            ).birthdate)
        // An age becomes January 1st of the derived year, as Monica stores it.
        let aged = try ContactDraft(firstName: "A", birthdateIsAgeBased: true, birthdateAge: 40).validated(
            today: today, genders: genders
        )
        .birthdate
        XCTAssertEqual(aged, Birthdate(day: 1, month: 1, year: 1984, isAgeBased: true))
        XCTAssertThrowsError(
            try ContactDraft(firstName: "A", birthdateIsAgeBased: true, birthdateAge: 200).validated(
                today: today, genders: genders))
    }

    func testBirthdateShownYearAndAge() {
        let leapDay = Birthdate(day: 29, month: 2)!
        XCTAssertEqual(leapDay.calendarDate(currentYear: 2023).description, "2023-02-28")
        XCTAssertEqual(leapDay.calendarDate(currentYear: 2024).description, "2024-02-29")
        let known = Birthdate(day: 4, month: 5, year: 1990)!
        XCTAssertEqual(known.age(on: today), 34)
        XCTAssertEqual(known.age(on: CalendarDate(year: 2024, month: 5, day: 3)!), 33)
        XCTAssertNil(leapDay.age(on: today))
    }

    func testCalendarDates() {
        XCTAssertNil(CalendarDate(year: 2023, month: 2, day: 29))
        XCTAssertNotNil(CalendarDate(year: 2000, month: 2, day: 29))
        XCTAssertNil(CalendarDate(year: 1900, month: 2, day: 29))
        XCTAssertEqual(CalendarDate(iso8601: "2018-05-01T00:00:00Z"), CalendarDate(year: 2018, month: 5, day: 1))
        XCTAssertNil(CalendarDate(iso8601: "2018-5-1"))
        for text in ["2024-+1-01", "2024-02-30", "20240-01-01", "2024-01-01 ", "2024-01-0", "", "２０２４-01-01"] {
            XCTAssertNil(CalendarDate(iso8601: text), text)
        }
        XCTAssertEqual(CalendarDate(year: 2018, month: 5, day: 1)?.midnightTimestamp, "2018-05-01T00:00:00Z")
        // 23:30 UTC on May 4th is already May 5th in Zurich.
        let lateEvening = Date(timeIntervalSince1970: 1_714_865_400)
        XCTAssertEqual(CalendarDate(lateEvening, in: TimeZone(identifier: "Europe/Zurich")!).description, "2024-05-05")
        XCTAssertEqual(CalendarDate(lateEvening, in: .gmt).description, "2024-05-04")
    }

    func testAGenderIsOneOfTheAccountsByIDNameOrTypeLetter() throws {
        XCTAssertEqual(
            try ContactDraft(firstName: "A", genderID: 3).validated(today: today, genders: genders).gender?.type, "O")
        XCTAssertEqual(
            try ContactDraft(firstName: "A", genderName: " woman ").validated(today: today, genders: genders).gender,
            genders[1])
        XCTAssertEqual(
            try ContactDraft(firstName: "A", genderName: "m").validated(today: today, genders: genders).gender,
            genders[0])
        XCTAssertEqual(
            try ContactDraft(firstName: "A", genderID: 1, genderName: "Woman").validated(today: today, genders: genders)
                .gender, genders[0], "the id wins")
        XCTAssertThrowsError(try ContactDraft(firstName: "A", genderID: 4).validated(today: today, genders: genders)) {
            XCTAssertEqual(
                ($0 as? ValidationFailure)?.messages,
                ["Gender must be one of this account’s genders: 1 (Man), 2 (Woman), 3 (Rather not say)."])
        }
        XCTAssertThrowsError(
            try ContactDraft(firstName: "A", genderName: "Robot").validated(today: today, genders: genders)
        ) {
            XCTAssertEqual(($0 as? ValidationFailure)?.errors.map(\.field), ["gender"])
        }
        XCTAssertEqual(try Gender.validated(name: " Non-binary ", type: "n").type, "N")
        XCTAssertEqual(try Gender.validated(name: "Other", type: nil).type, "O")
        XCTAssertThrowsError(try Gender.validated(name: " ", type: "X")) {
            XCTAssertEqual(
                ($0 as? ValidationFailure)?.messages, ["Name the gender.", "Type must be M, F, O, U or N."])
        }
    }
}
