import Foundation
import LocifyCore

/// Monica's debt, with `currency` (Locify keeps one per debt) and `contact_id` after its keys.
public struct DebtResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "debt"
    /// `yes` when the account's owner owes the contact.
    public var inDebt: String
    /// `inprogress` or `completed`.
    public var status: String
    public var amount: String
    public var value: String
    public var amountWithCurrency: String
    @Nullable public var reason: String?
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var currency: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case inDebt = "in_debt"
        case status, amount, value
        case amountWithCurrency = "amount_with_currency"
        case reason, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case currency
        case contactID = "contact_id"
    }

    public init(_ debt: Debt, contact: ContactShortResource) {
        id = debt.id
        uuid = debt.uuid.lowercasedText
        inDebt = debt.fields.ownerOwes ? "yes" : "no"
        status = debt.fields.isSettled ? "completed" : "inprogress"
        amount = debt.fields.amount.decimalText
        value = debt.fields.amount.decimalText
        amountWithCurrency = debt.fields.amount.displayText
        reason = debt.fields.reason
        account = AccountReference(id: debt.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(debt.createdAt)
        updatedAt = Timestamp.string(debt.updatedAt)
        currency = debt.fields.amount.currency
        contactID = debt.contactID
    }
}

/// The body of the debt routes, read leniently like `ContactInput`.
public struct DebtInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = DebtDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: DebtDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: DebtDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.inDebt = reader.string("in_debt")
        draft.status = reader.string("status")
        draft.amount = reader.number("amount")
        draft.currency = reader.string("currency")
        draft.reason = reader.string("reason")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: DebtDraft) -> DebtDraft {
        var result = existing
        if presentKeys.contains("in_debt") { result.inDebt = draft.inDebt }
        if presentKeys.contains("status") { result.status = draft.status }
        if presentKeys.contains("amount") { result.amount = draft.amount }
        if presentKeys.contains("currency") { result.currency = draft.currency }
        if presentKeys.contains("reason") { result.reason = draft.reason }
        return result
    }
}
