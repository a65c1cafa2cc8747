import LocifyCore
import Vapor

/// The contact page's work history: add a job (its company named in words: one of the account's companies,
/// or a new one made with it), delete one. Both work without scripts and go back to the contact's page; a
/// refused job draws the page again with the problem beside the form and stores nothing, not even its
/// company.
struct OccupationsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(WorkPaths.contactOccupations, use: addOccupation)
        routes.post(WorkPaths.deleteOccupation, use: deleteOccupation)
    }

    struct OccupationForm: Content {
        var title: String?
        var company: String?
        var startDate: String?
        var endDate: String?
        var currentlyWorksHere: String?
        var salary: String?
        var salaryUnit: String?

        enum CodingKeys: String, CodingKey {
            case title, company, salary
            case startDate = "start_date"
            case endDate = "end_date"
            case currentlyWorksHere = "currently_works_here"
            case salaryUnit = "salary_unit"
        }

        var typed: [String: String?] {
            [
                "title": title, "company": company, "start_date": startDate, "end_date": endDate,
                "currently_works_here": currentlyWorksHere, "salary": salary, "salary_unit": salaryUnit,
            ]
        }
    }

    func addOccupation(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(OccupationForm.self)
        return try await request.handleContactForm(.occupation, contact: contactID, typed: form.typed) {
            var problems: [FieldError] = []
            let salary = LooseValue.integer(form.salary, field: "salary", label: "Salary", problems: &problems)
            let companyName = form.company?.trimmingCharacters(in: .whitespaces) ?? ""
            if companyName.isEmpty { problems.append(FieldError(field: "company", message: "Name the company.")) }
            let draft = OccupationDraft(
                title: form.title, salary: salary, salaryUnit: salary == nil ? nil : form.salaryUnit,
                currentlyWorksHere: form.currentlyWorksHere != nil, startDate: form.startDate, endDate: form.endDate)
            // Everything but the company is checked, the contact too, before a new company is made for it.
            var checked = draft
            checked.companyID = 0
            _ = try ValidationFailure.checking(typeErrors: problems) { () throws(ValidationFailure) in
                try checked.validated()
            }
            if try await request.contacts().contact(contactID).fields.isArchived {
                throw ValidationFailure.archivedContact
            }
            let companies = try request.companies()
            let company: Company
            if let known = try await companies.company(named: companyName) {
                company = known
            } else {
                company = try await companies.create(CompanyDraft(name: companyName))
            }
            var placed = draft
            placed.companyID = company.id
            let occupation = try await request.occupations().create(contactID: contactID, placed)
            return .redirect(
                to: ContactPaths.contact(contactID).path + "#occupation-\(occupation.id)",
                flash: "\(occupation.fields.title) at \(company.fields.name) was added.")
        }
    }

    func deleteOccupation(request: Request) async throws -> Response {
        let occupations = try request.occupations()
        let occupation = try await occupations.occupation(try request.pathID(.occupationID))
        try await occupations.delete(occupation.id)
        return request.redirect(
            to: ContactPaths.contact(occupation.contactID).path + "#work", flash: "The job was deleted.")
    }
}

extension FormName {
    static let occupation = FormName("occupation")
}

/// One job as the contact page lists it: "Chemist at Sorbonne", when, and the salary.
struct OccupationLine: Encodable {
    let id: Int
    let title: String
    let company: String
    let details: String?
    let deleteURL: String

    init(_ occupation: Occupation, companyName: String?) {
        let fields = occupation.fields
        id = occupation.id
        title = fields.title
        company = companyName ?? "a company"
        let span: String? =
            switch (fields.startDate, fields.endDate, fields.currentlyWorksHere) {
            case (let start?, _, true): "since \(start.dayMonthYear)"
            case (nil, _, true): "works here now"
            case (let start?, let end?, false): "\(start.dayMonthYear) to \(end.dayMonthYear)"
            case (let start?, nil, false): "from \(start.dayMonthYear)"
            case (nil, let end?, false): "until \(end.dayMonthYear)"
            case (nil, nil, false): nil
            }
        let salary = fields.salary.map { amount in
            let number = amount.formatted(.number.grouping(.automatic))
            return fields.salaryUnit.map { "\(number) a \($0.rawValue)" } ?? number
        }
        let parts = [span, salary].compactMap { $0 }
        details = parts.isEmpty ? nil : parts.joined(separator: " · ")
        deleteURL = WorkPaths.deleteOccupation(occupation.id).path
    }
}

/// The contact page's jobs, current ones first, and the form that adds one.
struct ContactOccupationsSection: Encodable {
    static let shownOnPage = 50

    let items: [OccupationLine]
    let addURL: String
    let titleField: FormField
    let companyField: FormField
    let startField: FormField
    let endField: FormField
    let currentField: FormField
    let salaryField: FormField
    let unitField: FormField
    let isAdding: Bool

    /// `companyNames` are the account's, by id.
    init(contact: Contact, occupations: [Occupation], companyNames: [Int: String], problem: FormProblem?) {
        items = occupations.sorted {
            ($0.fields.currentlyWorksHere ? 0 : 1, $1.fields.startDate?.description ?? "")
                < ($1.fields.currentlyWorksHere ? 0 : 1, $0.fields.startDate?.description ?? "")
        }.map { OccupationLine($0, companyName: companyNames[$0.fields.companyID]) }
        addURL = WorkPaths.contactOccupations(contact.id).path
        let error = problem?.message(for: .occupation)
        isAdding = error != nil
        func typed(_ field: String) -> String? { problem?.typed(field, in: .occupation) }
        titleField = FormField(
            "title", label: "Job title", value: typed("title"), error: error, isRequired: true,
            maxLength: OccupationDraft.maximumTitleLength
        ).identified(as: "new-occupation-title")
        companyField = FormField(
            "company", label: "Company", value: typed("company"), hint: "One of yours, or a new one.",
            isRequired: true, maxLength: CompanyDraft.maximumNameLength,
            suggestions: companyNames.values.sorted()
        ).identified(as: "new-occupation-company")
        startField = FormField("start_date", label: "Started", control: .date, value: typed("start_date"))
            .identified(as: "new-occupation-start")
        endField = FormField("end_date", label: "Ended", control: .date, value: typed("end_date"))
            .identified(as: "new-occupation-end")
        currentField = FormField(
            "currently_works_here", label: "Works here now", control: .checkbox, value: "1",
            isChecked: problem == nil || typed("currently_works_here") != nil
        ).identified(as: "new-occupation-current")
        salaryField = FormField(
            "salary", label: "Salary", value: typed("salary"), hint: "Optional, in whole units.",
            inputMode: "numeric", maxLength: 10
        ).identified(as: "new-occupation-salary")
        let unit = typed("salary_unit") ?? SalaryUnit.year.rawValue
        unitField = FormField(
            "salary_unit", label: "Per", control: .select,
            options: SalaryUnit.allCases.map {
                SelectOption(value: $0.rawValue, label: $0.rawValue, isSelected: $0.rawValue == unit)
            }
        ).identified(as: "new-occupation-unit")
    }
}
