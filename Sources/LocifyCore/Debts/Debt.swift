import Foundation

/// Money owed between the owner and a contact, checked.
public struct DebtFields: Equatable, Sendable {
    /// True when the owner owes the contact (Monica's `in_debt: yes`); false when the contact owes the owner.
    public var ownerOwes: Bool
    /// True once paid back (Monica's `status: completed`).
    public var isSettled: Bool
    public var amount: Money
    public var reason: String?

    public init(ownerOwes: Bool, isSettled: Bool = false, amount: Money, reason: String? = nil) {
        self.ownerOwes = ownerOwes
        self.isSettled = isSettled
        self.amount = amount
        self.reason = reason
    }
}

/// A stored debt with one of the owner's contacts.
public struct Debt: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public var fields: DebtFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: DebtFields, createdAt: Date, updatedAt: Date
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

/// A debt as typed, in Monica's words: `in_debt` `yes`/`no`, `status` `inprogress`/`completed`.
public struct DebtDraft: Sendable {
    public var inDebt: String?
    public var status: String?
    public var amount: Double?
    public var currency: String?
    public var reason: String?

    public init(
        inDebt: String? = nil, status: String? = nil, amount: Double? = nil, currency: String? = nil,
        reason: String? = nil
    ) {
        self.inDebt = inDebt
        self.status = status
        self.amount = amount
        self.currency = currency
        self.reason = reason
    }

    public init(_ fields: DebtFields) {
        self.init(
            inDebt: fields.ownerOwes ? "yes" : "no", status: fields.isSettled ? "completed" : "inprogress",
            amount: fields.amount.majorUnits, currency: fields.amount.currency, reason: fields.reason)
    }

    /// 100,000 characters (Monica takes 1,000,000): written as JSON escapes, the longest still fits a 2 MB
    /// body with the rest of the record (`BodyLimit.longText`).
    public static let maximumReasonLength = 100_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "in_debt": "Who owes", "status": "Status", "amount": "Amount",
        "currency": "Currency", "reason": "Reason",
    ]

    public func validated() throws(ValidationFailure) -> DebtFields {
        var check = FieldChecker()
        let reason = check.text(reason, field: "reason", label: "Reason", limit: Self.maximumReasonLength)
        var ownerOwes: Bool?
        switch inDebt?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "": check.fail("in_debt", "Say who owes whom (in_debt: yes or no).")
        case "yes": ownerOwes = true
        case "no": ownerOwes = false
        default: check.fail("in_debt", "Who owes must be yes or no.")
        }
        var isSettled = false
        switch status?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "inprogress": isSettled = false
        case "completed": isSettled = true
        default: check.fail("status", "The status must be inprogress or completed.")
        }
        let money = Money.checked(amount: amount, currency: currency, check: &check)
        if amount == nil { check.fail("amount", "The amount is required.") }
        guard let ownerOwes, let money else { throw ValidationFailure(check.errors) }
        return try check.finish(DebtFields(ownerOwes: ownerOwes, isSettled: isSettled, amount: money, reason: reason))
    }
}
