import XCTest

@testable import LocifyAPI
@testable import LocifyCore

final class WireTypesTests: XCTestCase {
    func testOrderedEncoderKeepsDeclarationOrderAndNulls() throws {
        struct Sample: Encodable {
            var zebra = 1
            var apple = "a\"b\\c\n/é"
            @Nullable var missing: String? = nil
            var nested = ["x": 1.5]
            var list: [Int?] = [1, nil]
            var flag = true
        }
        let json = String(decoding: try OrderedJSONEncoder().encode(Sample()), as: UTF8.self)
        XCTAssertEqual(
            json, #"{"zebra":1,"apple":"a\"b\\c\n/é","missing":null,"nested":{"x":1.5},"list":[1,null],"flag":true}"#)
        XCTAssertThrowsError(try OrderedJSONEncoder().encode(["bad": Double.nan]))
    }

    func testErrorEnvelopeShapes() throws {
        let validation = String(
            decoding: try OrderedJSONEncoder().encode(ErrorEnvelope(message: .list(["A", "B"]), code: 32)),
            as: UTF8.self)
        XCTAssertEqual(validation, #"{"error":{"message":["A","B"],"error_code":32}}"#)
        let decoded = try JSONDecoder().decode(
            ErrorEnvelope.self, from: Data(#"{"error":{"message":"Nope","error_code":31}}"#.utf8))
        XCTAssertEqual(decoded, ErrorEnvelope(message: .text("Nope"), code: 31))
    }

    func testContactInputAcceptsWhatMonicaClientsSend() throws {
        let input = try JSONDecoder().decode(
            ContactInput.self,
            from: Data(
                """
                {"first_name":"Ann","gender_id":"2","is_birthdate_known":1,"birthdate_day":"4","birthdate_month":5,
                 "is_starred":"true","birthdate_year":"","unknown":{"deep":[1]}}
                """.utf8))
        XCTAssertEqual(input.typeErrors, [])
        XCTAssertEqual(input.draft.genderID, 2)
        XCTAssertEqual(input.draft.isBirthdateKnown, true)
        XCTAssertEqual(input.draft.birthdateDay, 4)
        XCTAssertNil(input.draft.birthdateYear)
        XCTAssertTrue(input.draft.isStarred)

        let wrong = try JSONDecoder().decode(
            ContactInput.self, from: Data(#"{"first_name":["x"],"is_starred":"perhaps"}"#.utf8))
        XCTAssertEqual(wrong.typeErrors.map(\.field), ["first_name", "is_starred"])
    }

    func testUpdateMergesOnlyTheKeysSent() throws {
        let stored = ContactDraft(
            firstName: "Ann", lastName: "Lee", email: "ann@example.com", birthdateDay: 1, birthdateMonth: 2,
            isStarred: true)
        let input = try JSONDecoder().decode(
            ContactInput.self, from: Data(#"{"last_name":null,"birthdate_day":9,"birthdate_month":9}"#.utf8))
        let merged = input.merged(into: stored)
        XCTAssertEqual(merged.firstName, "Ann")
        XCTAssertNil(merged.lastName)
        XCTAssertEqual(merged.email, "ann@example.com")
        XCTAssertEqual(merged.birthdateDay, 9)
        XCTAssertTrue(merged.isStarred, "a key not sent keeps its value")
    }

    func testPagerLinksAreBoundedLikeLaravels() {
        let page = PageResource<Int>(items: [], window: PageWindow(page: 10, limit: 1, total: 40), path: "/p") {
            "/p?page=\($0)"
        }
        let labels = page.meta.links.map(\.label)
        XCTAssertEqual(
            labels,
            [
                "&laquo; Previous", "1", "2", "...", "7", "8", "9", "10", "11", "12", "13", "...", "39", "40",
                "Next &raquo;",
            ])
        XCTAssertEqual(page.meta.links.first { $0.active }?.label, "10")
        XCTAssertEqual(page.links.prev, "/p?page=9")
        let beyond = PageResource<Int>(items: [], window: PageWindow(page: 50, limit: 10, total: 5), path: "/p") {
            "/p?page=\($0)"
        }
        XCTAssertEqual(beyond.meta.links.map(\.label), ["&laquo; Previous", "1", "Next &raquo;"])
        // Past the last page, Laravel's paginator points back to the page before the one asked for.
        XCTAssertEqual(beyond.links.prev, "/p?page=49")
        XCTAssertEqual(beyond.meta.links.first?.url, "/p?page=49")
        XCTAssertNil(beyond.links.next)
    }
}

final class ContactShortShapeTests: XCTestCase {
    func testShortContactKeysAreMonicasInOrder() throws {
        let fields = ContactFields(
            firstName: "Ann", lastName: "Lee", birthdate: Birthdate(day: 3, month: 4),
            gender: Gender(id: 3, name: "Rather not say", type: "O"))
        let contact = Contact(
            id: 7, uuid: UUID(uuidString: "00000000-0000-0000-0000-000000000007")!, ownerID: 2, fields: fields,
            defaultAvatarColor: "#709512", createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
        let resource = ContactShortResource(
            contact, url: "https://l.example/api/contacts/7",
            avatar: AvatarResource(url: nil, source: "default", defaultAvatarColor: "#709512"), currentYear: 2025)
        let json = String(decoding: try OrderedJSONEncoder().encode(resource), as: UTF8.self)
        XCTAssertEqual(
            json,
            """
            {"id":7,"uuid":"00000000-0000-0000-0000-000000000007","object":"contact","hash_id":"\(HashID.encode(7))",\
            "first_name":"Ann","last_name":"Lee","nickname":null,"complete_name":"Ann Lee","initials":"AL",\
            "gender":"Rather not say","gender_type":"O","is_starred":false,"is_partial":false,"is_active":true,\
            "is_dead":false,"is_me":false,"information":{"birthdate":{"is_age_based":false,"is_year_unknown":true,\
            "date":"2025-04-03T00:00:00Z"},"deceased_date":{"is_age_based":null,"is_year_unknown":null,"date":null},\
            "avatar":{"url":null,"source":"default","default_avatar_color":"#709512"}},\
            "url":"https://l.example/api/contacts/7","account":{"id":2}}
            """)
    }
}
