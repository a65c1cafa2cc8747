import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// `/api/companies` and `/api/occupations` (and a contact's): Monica's shapes, updates that keep what
/// they leave out, validation, ownership, what goes with a company or a contact, and the sync feed.
final class WorkTests: XCTestCase {
    func testACompanysShapeMatchesMonicasAndAnUpdateKeepsWhatItLeavesOut() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let response = try await app.send(
                .POST, "/api/companies", headers: account.bearer,
                json:
                    #"{"name": " Analytical Engines ", "website": "https://engines.example", "number_of_employees": "12"}"#
            )
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<CompanyResource>.self).data
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"company","name":"Analytical Engines","#
                    + #""website":"https://engines.example","number_of_employees":12,"account":{"id":\#(account.id)},"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z"}}"#)

            clock.advance(by: 60)
            let renamed = try await app.send(
                .PUT, "/api/companies/\(made.id)", headers: account.bearer, json: #"{"name": "Engines Ltd"}"#)
            XCTAssertEqual(renamed.status, .ok, renamed.text)
            let updated = try renamed.decoded(DataEnvelope<CompanyResource>.self).data
            XCTAssertEqual(updated.name, "Engines Ltd")
            XCTAssertEqual(updated.website, "https://engines.example", "left out: kept")
            XCTAssertEqual(updated.numberOfEmployees, 12)
            XCTAssertEqual(updated.updatedAt, "2024-05-04T10:07:05Z")
            let cleared = try await app.send(
                .PUT, "/api/companies/\(made.id)", headers: account.bearer,
                json: #"{"website": null, "number_of_employees": ""}"#)
            XCTAssertTrue(cleared.text.contains(#""website":null,"number_of_employees":null"#), cleared.text)
            let listed = try await app.send(.GET, "/api/companies", headers: account.bearer)
            XCTAssertEqual(try listed.decoded(PageResource<CompanyResource>.self).data.map(\.id), [made.id])

            // Refused whole, nothing changed: no name, a number for a name, a count below zero.
            let cases: [(String, [String])] = [
                ("{}", ["The name field is required."]),
                (
                    #"{"name": 42, "number_of_employees": -1}"#,
                    ["Name must be text.", "Number of employees must be between 0 and 100,000,000."]
                ),
                (
                    #"{"name": "\#(String(repeating: "a", count: 256))", "website": "w"}"#,
                    ["Name must be at most 255 characters."]
                ),
            ]
            for (json, messages) in cases {
                let refused = try await app.send(.POST, "/api/companies", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(json): \(refused.text)")
                XCTAssertEqual(try refused.decoded(ErrorEnvelope.self).error.message, .list(messages), json)
            }
            let blanked = try await app.send(
                .PUT, "/api/companies/\(made.id)", headers: account.bearer, json: #"{"name": "  "}"#)
            XCTAssertEqual(blanked.status, .unprocessableEntity, blanked.text)
            let count = try await app.count(CompaniesTable.self)
            XCTAssertEqual(count, 1)

            // Another account's company is not found, whatever the method.
            let other = try await app.makeAccount(email: "grace@example.com")
            for method in [HTTPMethod.GET, .PUT, .DELETE] {
                let foreign = try await app.send(
                    method, "/api/companies/\(made.id)", headers: other.bearer, json: #"{"name": "Mine"}"#)
                XCTAssertEqual(foreign.status, .notFound, "\(method): \(foreign.text)")
            }
            let theirs = try await app.send(.GET, "/api/companies", headers: other.bearer)
            XCTAssertEqual(try theirs.decoded(PageResource<CompanyResource>.self).meta.total, 0)
        }
    }

    func testAnOccupationsShapeMatchesMonicasWithItsCompanyWhole() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            let engines = try await app.send(
                .POST, "/api/companies", headers: account.bearer, json: #"{"name": "Engines"}"#
            ).decoded(DataEnvelope<CompanyResource>.self).data
            let navy = try await app.send(
                .POST, "/api/companies", headers: account.bearer, json: #"{"name": "Navy"}"#
            ).decoded(DataEnvelope<CompanyResource>.self).data
            let companyJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(engines), as: UTF8.self)

            let response = try await app.send(
                .POST, "/api/occupations", headers: account.bearer,
                json: #"""
                    {"contact_id": \#(ada.id), "company_id": \#(engines.id), "title": "Analyst",
                     "description": "Notes on the engine", "salary": 300, "salary_unit": "Year",
                     "currently_works_here": "true", "start_date": "1842-10-01", "end_date": null}
                    """#)
            XCTAssertEqual(response.status, .created, "\(database): \(response.text)")
            let made = try response.decoded(DataEnvelope<OccupationResource>.self).data
            let adaJSON = String(decoding: try OrderedJSONEncoder().encodedBytes(made.contact), as: UTF8.self)
            XCTAssertEqual(
                response.text,
                #"{"data":{"id":\#(made.id),"uuid":"\#(made.uuid)","object":"occupation","title":"Analyst","#
                    + #""description":"Notes on the engine","salary":300,"salary_unit":"year","#
                    + #""currently_works_here":true,"start_date":"1842-10-01","end_date":null,"#
                    + #""company":\#(companyJSON),"account":{"id":\#(account.id)},"contact":\#(adaJSON),"#
                    + #""created_at":"2024-05-04T10:06:05Z","updated_at":"2024-05-04T10:06:05Z","#
                    + #""contact_id":\#(ada.id)}}"#)

            // Through the contact's path, which names the contact whatever the body says.
            let byPath = try await app.send(
                .POST, "/api/contacts/\(byron.id)/occupations", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "company_id": \#(navy.id), "title": "Poet"}"#)
            XCTAssertEqual(byPath.status, .created, byPath.text)
            let poet = try byPath.decoded(DataEnvelope<OccupationResource>.self).data
            XCTAssertEqual(poet.contactID, byron.id)
            XCTAssertEqual(poet.currentlyWorksHere, false, "left out on create: false")
            XCTAssertNil(poet.salaryUnit)

            // An update changes what it sends: another company, the job ended; the rest is kept.
            clock.advance(by: 60)
            let moved = try await app.send(
                .PUT, "/api/occupations/\(made.id)", headers: account.bearer,
                json: #"{"company_id": \#(navy.id), "currently_works_here": false, "end_date": "1852-11-27"}"#)
            XCTAssertEqual(moved.status, .ok, moved.text)
            let updated = try moved.decoded(DataEnvelope<OccupationResource>.self).data
            XCTAssertEqual(updated.company.name, "Navy")
            XCTAssertEqual(updated.title, "Analyst")
            XCTAssertEqual(updated.salary, 300)
            XCTAssertEqual(updated.startDate, "1842-10-01")
            XCTAssertEqual(updated.endDate, "1852-11-27")
            let adas = try await app.send(.GET, "/api/contacts/\(ada.id)/occupations", headers: account.bearer)
            XCTAssertEqual(try adas.decoded(PageResource<OccupationResource>.self).data.map(\.id), [made.id])
            let filtered = try await app.send(.GET, "/api/occupations?contact_id=\(byron.id)", headers: account.bearer)
            XCTAssertEqual(try filtered.decoded(PageResource<OccupationResource>.self).data.map(\.id), [poet.id])
        }
    }

    func testAnOccupationsInputIsCheckedWholeAndOtherAccountsRecordsAreNotFound() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let engines = try await app.send(
                .POST, "/api/companies", headers: account.bearer, json: #"{"name": "Engines"}"#
            ).decoded(DataEnvelope<CompanyResource>.self).data
            let cases: [(String, [String])] = [
                (
                    "{}",
                    [
                        "Choose the contact this occupation is about.", "The company id field is required.",
                        "The title field is required.",
                    ]
                ),
                (
                    #"""
                    {"contact_id": \#(ada.id), "company_id": \#(engines.id), "title": 7, "salary": -5,
                     "salary_unit": "fortnight", "start_date": "1842-13-01", "currently_works_here": "maybe"}
                    """#,
                    [
                        "Currently works here must be true or false.", "Title must be text.",
                        "Salary must be between 0 and 1,000,000,000.",
                        "The salary unit must be year, month, week, day or hour.",
                        "Start date must be a date written YYYY-MM-DD.",
                    ]
                ),
            ]
            for (json, messages) in cases {
                let refused = try await app.send(.POST, "/api/occupations", headers: account.bearer, json: json)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(database) \(json): \(refused.text)")
                guard case .list(let found) = try refused.decoded(ErrorEnvelope.self).error.message else {
                    return XCTFail(refused.text)
                }
                XCTAssertEqual(Set(found), Set(messages), refused.text)
            }

            // Another account's company or contact is not found; so are its occupations.
            let other = try await app.makeAccount(email: "grace@example.com")
            let grace = try await app.makeContact(for: other, ContactDraft(firstName: "Grace"))
            let theirCompany = try await app.send(
                .POST, "/api/companies", headers: other.bearer, json: #"{"name": "Harvard"}"#
            ).decoded(DataEnvelope<CompanyResource>.self).data
            let foreignCompany = try await app.send(
                .POST, "/api/occupations", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "company_id": \#(theirCompany.id), "title": "Spy"}"#)
            XCTAssertEqual(foreignCompany.status, .notFound, foreignCompany.text)
            XCTAssertTrue(foreignCompany.text.contains("company_id must be one of your companies."))
            let foreignContact = try await app.send(
                .POST, "/api/occupations", headers: account.bearer,
                json: #"{"contact_id": \#(grace.id), "company_id": \#(engines.id), "title": "Spy"}"#)
            XCTAssertEqual(foreignContact.status, .notFound, foreignContact.text)
            let count = try await app.count(OccupationsTable.self)
            XCTAssertEqual(count, 0)

            let made = try await app.send(
                .POST, "/api/occupations", headers: account.bearer,
                json: #"{"contact_id": \#(ada.id), "company_id": \#(engines.id), "title": "Analyst"}"#
            ).decoded(DataEnvelope<OccupationResource>.self).data
            let stolen = try await app.send(
                .PUT, "/api/occupations/\(made.id)", headers: account.bearer,
                json: #"{"company_id": \#(theirCompany.id)}"#)
            XCTAssertEqual(stolen.status, .notFound, stolen.text)
            for (method, path) in [
                (HTTPMethod.GET, "/api/occupations/\(made.id)"), (.DELETE, "/api/occupations/\(made.id)"),
                (.GET, "/api/contacts/\(ada.id)/occupations"),
            ] {
                let foreign = try await app.send(method, path, headers: other.bearer)
                XCTAssertEqual(foreign.status, .notFound, path)
            }
            let kept = try await app.send(.GET, "/api/occupations/\(made.id)", headers: account.bearer)
            XCTAssertEqual(try kept.decoded(DataEnvelope<OccupationResource>.self).data.company.id, engines.id)
        }
    }

    func testCompaniesAndOccupationsTravelInTheSyncFeedAndGoWithTheirCompanyOrContact() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let byron = try await app.makeContact(for: account, ContactDraft(firstName: "Byron"))
            // Made offline: the occupation names its company by the uuid the phone gave it.
            let company = UUID().uuidString.lowercased()
            let first = UUID().uuidString.lowercased()
            let second = UUID().uuidString.lowercased()
            let pushed = try await app.send(
                .POST, "/api/sync", headers: account.bearer,
                json: #"""
                    {"client_id": "phone", "mutations": [
                     {"id": 1, "type": "company", "op": "create", "uuid": "\#(company)", "fields": {"name": "Engines"}},
                     {"id": 2, "type": "occupation", "op": "create", "uuid": "\#(first)",
                      "fields": {"contact_id": \#(ada.id), "company_uuid": "\#(company)", "title": "Analyst"}},
                     {"id": 3, "type": "occupation", "op": "create", "uuid": "\#(second)",
                      "fields": {"contact_id": \#(byron.id), "company_uuid": "\#(company)", "title": "Poet"}}]}
                    """#)
            XCTAssertEqual(pushed.status, .ok, "\(database): \(pushed.text)")
            XCTAssertEqual(
                try pushed.decoded(SyncPushAnswerResource.self).results.map(\.status), [.applied, .applied, .applied],
                pushed.text)
            let pulled = try await app.send(.GET, "/api/sync?types=company,occupation", headers: account.bearer)
            let feed = try pulled.decoded(SyncPullResource.self)
            XCTAssertEqual(feed.changes.map(\.type), ["company", "occupation", "occupation"], pulled.text)
            guard case .occupation(let record) = feed.changes[1].data else { return XCTFail(pulled.text) }
            XCTAssertEqual(record.company.uuid, company)

            // A contact's occupations go with it; a company's with it, each leaving its tombstone.
            _ = try await app.send(.DELETE, "/api/contacts/\(byron.id)", headers: account.bearer)
            let afterContact = try await app.send(
                .GET, "/api/sync?types=occupation&cursor=\(feed.cursor)", headers: account.bearer)
            let contactGone = try afterContact.decoded(SyncPullResource.self)
            XCTAssertEqual(contactGone.deletions.map(\.uuid), [second])
            let companyID = try await app.send(.GET, "/api/companies", headers: account.bearer)
                .decoded(PageResource<CompanyResource>.self).data[0].id
            let deleted = try await app.send(.DELETE, "/api/companies/\(companyID)", headers: account.bearer)
            XCTAssertEqual(deleted.text, #"{"deleted":true,"id":\#(companyID)}"#)
            let afterCompany = try await app.send(
                .GET, "/api/sync?types=company,occupation&cursor=\(contactGone.cursor)", headers: account.bearer)
            XCTAssertEqual(
                Set(try afterCompany.decoded(SyncPullResource.self).deletions.map(\.uuid)), [company, first],
                afterCompany.text)
            let left = try await app.count(OccupationsTable.self)
            XCTAssertEqual(left, 0)
        }
    }
}
