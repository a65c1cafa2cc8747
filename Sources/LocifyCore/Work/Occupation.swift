import Foundation

/// What a salary is counted per, in Monica's words.
public enum SalaryUnit: String, CaseIterable, Sendable {
    case year, month, week, day, hour
}

/// A contact's job at one of the owner's companies, checked.
public struct OccupationFields: Equatable, Sendable {
    public var companyID: Int
    public var title: String
    public var description: String?
    /// Whole units of money a `salaryUnit`; Monica keeps no currency with it.
    public var salary: Int?
    public var salaryUnit: SalaryUnit?
    public var currentlyWorksHere: Bool
    public var startDate: CalendarDate?
    public var endDate: CalendarDate?

    public init(
        companyID: Int, title: String, description: String? = nil, salary: Int? = nil, salaryUnit: SalaryUnit? = nil,
        currentlyWorksHere: Bool = false, startDate: CalendarDate? = nil, endDate: CalendarDate? = nil
    ) {
        self.companyID = companyID
        self.title = title
        self.description = description
        self.salary = salary
        self.salaryUnit = salaryUnit
        self.currentlyWorksHere = currentlyWorksHere
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// A stored occupation of one of the owner's contacts.
public struct Occupation: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public var contactID: Int
    public var fields: OccupationFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: OccupationFields, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.contactID = contactID
        self.fields = fields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An occupation as typed.
public struct OccupationDraft: Sendable {
    public var companyID: Int?
    public var title: String?
    public var description: String?
    public var salary: Int?
    public var salaryUnit: String?
    public var currentlyWorksHere: Bool?
    /// `YYYY-MM-DD`, or a date-time whose day is taken.
    public var startDate: String?
    public var endDate: String?

    public init(
        companyID: Int? = nil, title: String? = nil, description: String? = nil, salary: Int? = nil,
        salaryUnit: String? = nil, currentlyWorksHere: Bool? = nil, startDate: String? = nil, endDate: String? = nil
    ) {
        self.companyID = companyID
        self.title = title
        self.description = description
        self.salary = salary
        self.salaryUnit = salaryUnit
        self.currentlyWorksHere = currentlyWorksHere
        self.startDate = startDate
        self.endDate = endDate
    }

    public init(_ fields: OccupationFields) {
        self.init(
            companyID: fields.companyID, title: fields.title, description: fields.description, salary: fields.salary,
            salaryUnit: fields.salaryUnit?.rawValue, currentlyWorksHere: fields.currentlyWorksHere,
            startDate: fields.startDate?.description, endDate: fields.endDate?.description)
    }

    public static let maximumTitleLength = 255
    public static let maximumDescriptionLength = 1000
    /// Beyond a billion a salary is a typo, whatever the currency and unit.
    public static let maximumSalary = 1_000_000_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "company_id": "Company", "title": "Title", "description": "Description",
        "salary": "Salary", "salary_unit": "Salary unit", "currently_works_here": "Currently works here",
        "start_date": "Start date", "end_date": "End date",
    ]

    public func validated() throws(ValidationFailure) -> OccupationFields {
        var check = FieldChecker()
        if companyID == nil { check.fail("company_id", "The company id field is required.") }
        let title = check.text(title, field: "title", label: "Title", limit: Self.maximumTitleLength)
        if title == nil { check.fail("title", "The title field is required.") }
        let description = check.text(
            description, field: "description", label: "Description", limit: Self.maximumDescriptionLength)
        if let salary, !(0...Self.maximumSalary).contains(salary) {
            check.fail("salary", "Salary must be between 0 and 1,000,000,000.")
        }
        var unit: SalaryUnit?
        if let text = salaryUnit?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty {
            unit = SalaryUnit(rawValue: text)
            if unit == nil { check.fail("salary_unit", "The salary unit must be year, month, week, day or hour.") }
        }
        let start = Self.day(startDate, field: "start_date", label: "Start date", check: &check)
        let end = Self.day(endDate, field: "end_date", label: "End date", check: &check)
        guard let companyID, let title else { throw ValidationFailure(check.errors) }
        return try check.finish(
            OccupationFields(
                companyID: companyID, title: title, description: description, salary: salary, salaryUnit: unit,
                currentlyWorksHere: currentlyWorksHere ?? false, startDate: start, endDate: end))
    }

    /// A day written `YYYY-MM-DD` (Monica's `date_format:Y-m-d`), or a date-time whose day is taken as
    /// the other records take it.
    private static func day(_ text: String?, field: String, label: String, check: inout FieldChecker)
        -> CalendarDate?
    {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let day = MomentText.day(from: text) else {
            check.fail(field, "\(label) must be a date written YYYY-MM-DD.")
            return nil
        }
        return day
    }
}
