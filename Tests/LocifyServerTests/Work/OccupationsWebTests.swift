import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's work history: a job added with its company named in words (one of the account's,
/// whatever the letters' case, or a new one), listed current first with its span and salary, deleted
/// (its company stays); a refused job stores nothing, not even a new company; another account's job is
/// not found.
final class OccupationsWebTests: XCTestCase {
    func testJobsOnTheContactPage() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            let page = try await browser.registerWithContact()
            let api = try await app.apiAccount(email: "grace@example.com")
            _ = try await app.createdID(by: api, "/api/companies", #"{"name": "Sorbonne"}"#)
            var detail = try await browser.get(page)
            XCTAssertTrue(detail.text.contains(#"aria-labelledby="work-heading" id="work""#), "\(database)")
            XCTAssertTrue(detail.text.contains("No jobs yet."))
            XCTAssertTrue(detail.text.contains(#"<option value="Sorbonne">"#), "the account's companies are suggested")

            let refused = try await browser.post(
                page + "/occupations", form: ["title": " ", "company": "École normale", "salary": "lots"])
            XCTAssertEqual(refused.status, .unprocessableEntity, refused.text)
            XCTAssertTrue(
                refused.text.contains(
                    #"id="new-occupation-title-error">Salary must be a whole number. The title field is required."#),
                refused.text)
            XCTAssertTrue(refused.text.contains(#"value="École normale""#), "what was typed stays")
            let companiesAfterRefusal = try await app.count(CompaniesTable.self)
            XCTAssertEqual(companiesAfterRefusal, 1, "no company made for a refused job")
            let noJobs = try await app.count(OccupationsTable.self)
            XCTAssertEqual(noJobs, 0)

            let current = try await browser.post(
                page + "/occupations",
                form: [
                    "title": "Professor", "company": "sorbonne", "start_date": "1906-11-05",
                    "currently_works_here": "1", "salary": "10000", "salary_unit": "year",
                ])
            XCTAssertEqual(current.status, .seeOther, current.text)
            let earlier = try await browser.post(
                page + "/occupations",
                form: [
                    "title": "Teacher", "company": "École normale supérieure de Sèvres", "start_date": "1900-01-01",
                    "end_date": "1906-06-30",
                ])
            XCTAssertEqual(earlier.status, .seeOther, earlier.text)
            let companies = try await app.send(.GET, "/api/companies", headers: api.bearer)
                .decoded(PageResource<CompanyResource>.self).data
            XCTAssertEqual(
                companies.map(\.name).sorted(), ["Sorbonne", "École normale supérieure de Sèvres"],
                "an existing company is found whatever the case; a new one is made")
            let jobs = try await app.send(.GET, "/api/occupations", headers: api.bearer)
                .decoded(PageResource<OccupationResource>.self).data
            XCTAssertEqual(jobs.map(\.company.name).sorted(), ["Sorbonne", "École normale supérieure de Sèvres"])
            detail = try await browser.get(page)
            let professor = try XCTUnwrap(
                detail.text.range(of: "<strong>Professor</strong> at Sorbonne · since 5 November 1906 · 10,000 a year"),
                detail.text)
            let teacher = try XCTUnwrap(
                detail.text.range(
                    of:
                        "<strong>Teacher</strong> at École normale supérieure de Sèvres · 1 January 1900 to 30 June 1906"
                ))
            XCTAssertLessThan(professor.lowerBound, teacher.lowerBound, "the current job first")

            let professorID = try XCTUnwrap(jobs.first { $0.title == "Professor" }?.id)
            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            let foreign = try await stranger.post("/occupations/\(professorID)/delete", form: [:])
            XCTAssertEqual(foreign.status, .notFound)
            let foreignAdd = try await stranger.post(
                page + "/occupations", form: ["title": "Spy", "company": "Eve Inc"])
            XCTAssertEqual(foreignAdd.status, .notFound)
            let strayCompanies = try await app.count(CompaniesTable.self)
            XCTAssertEqual(strayCompanies, 2, "no company made for a job on another account's contact")
            let deleted = try await browser.post("/occupations/\(professorID)/delete", form: [:])
            XCTAssertEqual(deleted.status, .seeOther)
            let left = try await app.count(OccupationsTable.self)
            XCTAssertEqual(left, 1)
            let companiesLeft = try await app.count(CompaniesTable.self)
            XCTAssertEqual(companiesLeft, 2, "the company stays")
        }
    }
}
