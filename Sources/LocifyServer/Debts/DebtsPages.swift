import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let debt = FormName("debt")
}

/// The fields of a debt's form: the one recording a debt (`item` nil) or the one editing debt `item`, filled
/// with what was typed when that form was refused, else with `stored`.
struct DebtFormFields: Encodable {
    let direction: FormField
    let amount: FormField
    let currency: FormField
    let reason: FormField

    init(contactName: String, stored: DebtFields?, item: Int?, defaultCurrency: String, problem: FormProblem?) {
        let prefix = item.map { "debt-\($0)" } ?? "new-debt"
        func value(_ field: String, _ kept: String?) -> String? {
            problem?.typed(field, in: .debt, item: item) ?? kept
        }
        let owing = value("in_debt", stored.map { $0.ownerOwes ? "yes" : "no" }) ?? "no"
        direction = FormField(
            "in_debt", label: "Who owes", control: .select, error: problem?.message(for: .debt, item: item),
            options: [
                SelectOption(value: "no", label: "\(contactName) owes me", isSelected: owing == "no"),
                SelectOption(value: "yes", label: "I owe \(contactName)", isSelected: owing == "yes"),
            ]
        ).identified(as: "\(prefix)-direction")
        amount = FormField(
            "amount", label: "Amount", control: .text, value: value("amount", stored?.amount.decimalText),
            isRequired: true, inputMode: "decimal", maxLength: 20
        ).identified(as: "\(prefix)-amount")
        currency = FormField(
            "currency", label: "Currency", value: value("currency", stored?.amount.currency) ?? defaultCurrency,
            hint: "A three-letter code: EUR, GBP, CHF…", maxLength: 3, size: 4
        ).identified(as: "\(prefix)-currency")
        reason = FormField(
            "reason", label: "What for", control: .textarea, value: value("reason", stored?.reason),
            maxLength: DebtDraft.maximumReasonLength, rows: 2
        ).identified(as: "\(prefix)-reason")
    }
}

/// One debt as a contact page lists it, with its form for changes.
struct DebtLine: Encodable {
    let id: Int
    let summary: String
    let amount: String
    let reason: String?
    let isSettled: Bool
    let settleURL: String
    let settleLabel: String
    let editURL: String
    let fields: DebtFormFields
    let isEditing: Bool
    let deleteURL: String

    init(_ debt: Debt, contactName: String, defaultCurrency: String, problem: FormProblem?) {
        id = debt.id
        summary = debt.fields.ownerOwes ? "You owe \(contactName)" : "\(contactName) owes you"
        amount = debt.fields.amount.displayText
        reason = debt.fields.reason
        isSettled = debt.fields.isSettled
        settleURL = DebtPaths.settle(debt.id).path
        settleLabel = debt.fields.isSettled ? "Not paid back yet" : "Paid back"
        editURL = DebtPaths.debt(debt.id).path
        fields = DebtFormFields(
            contactName: contactName, stored: debt.fields, item: debt.id, defaultCurrency: defaultCurrency,
            problem: problem)
        isEditing = problem?.message(for: .debt, item: debt.id) != nil
        deleteURL = DebtPaths.delete(debt.id).path
    }
}

/// The contact page's debts, open ones first, and the form for a new one.
struct ContactDebtsSection: Encodable {
    /// The newest this many debts show on the contact page.
    static let shownOnPage = 50

    let items: [DebtLine]
    let addURL: String
    let fields: DebtFormFields
    let isAdding: Bool

    init(contact: Contact, debts: [Debt], defaultCurrency: String, problem: FormProblem?) {
        let name = contact.fields.firstName
        items = debts.sorted { !$0.fields.isSettled && $1.fields.isSettled }.map {
            DebtLine($0, contactName: name, defaultCurrency: defaultCurrency, problem: problem)
        }
        addURL = DebtPaths.contactDebts(contact.id).path
        fields = DebtFormFields(
            contactName: name, stored: nil, item: nil, defaultCurrency: defaultCurrency, problem: problem)
        isAdding = problem?.message(for: .debt) != nil
    }
}
