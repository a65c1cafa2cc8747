import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let debt = FormName("debt")
}

/// One debt as a contact page lists it.
struct DebtLine: Encodable {
    let id: Int
    let summary: String
    let amount: String
    let reason: String?
    let isSettled: Bool
    let settleURL: String
    let settleLabel: String
    let deleteURL: String

    init(_ debt: Debt, contactName: String) {
        id = debt.id
        summary = debt.fields.ownerOwes ? "You owe \(contactName)" : "\(contactName) owes you"
        amount = debt.fields.amount.displayText
        reason = debt.fields.reason
        isSettled = debt.fields.isSettled
        settleURL = DebtPaths.settle(debt.id).path
        settleLabel = debt.fields.isSettled ? "Not paid back yet" : "Paid back"
        deleteURL = DebtPaths.delete(debt.id).path
    }
}

/// The contact page's debts, open ones first, and the form for a new one.
struct ContactDebtsSection: Encodable {
    /// The newest this many debts show on the contact page.
    static let shownOnPage = 50

    let items: [DebtLine]
    let addURL: String
    let directionField: FormField
    let amountField: FormField
    let currencyField: FormField
    let reasonField: FormField
    let isAdding: Bool

    init(contact: Contact, debts: [Debt], problem: FormProblem?) {
        let name = contact.fields.firstName
        items = debts.sorted { !$0.fields.isSettled && $1.fields.isSettled }.map { DebtLine($0, contactName: name) }
        addURL = DebtPaths.contactDebts(contact.id).path
        let error = problem?.message(for: .debt)
        isAdding = error != nil
        let direction = problem?.typed("in_debt", in: .debt) ?? "no"
        directionField = FormField(
            "in_debt", label: "Who owes", control: .select, error: error,
            options: [
                SelectOption(value: "no", label: "\(name) owes me", isSelected: direction == "no"),
                SelectOption(value: "yes", label: "I owe \(name)", isSelected: direction == "yes"),
            ]
        ).identified(as: "new-debt-direction")
        amountField = FormField(
            "amount", label: "Amount", control: .text, value: problem?.typed("amount", in: .debt), isRequired: true,
            inputMode: "decimal", maxLength: 20
        ).identified(as: "new-debt-amount")
        currencyField = FormField(
            "currency", label: "Currency", value: problem?.typed("currency", in: .debt) ?? Money.defaultCurrency,
            hint: "A three-letter code: EUR, GBP, CHF…", maxLength: 3, size: 4
        ).identified(as: "new-debt-currency")
        reasonField = FormField(
            "reason", label: "What for", control: .textarea, value: problem?.typed("reason", in: .debt),
            maxLength: DebtDraft.maximumReasonLength, rows: 2
        ).identified(as: "new-debt-reason")
    }
}
