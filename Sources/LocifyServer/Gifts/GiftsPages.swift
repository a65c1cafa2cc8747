import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let gift = FormName("gift")
}

/// One gift as a contact page lists it.
struct GiftLine: Encodable {
    let id: Int
    let name: String
    let status: String
    let amount: String?
    let date: String?
    let link: String?
    let comment: String?
    let statusURL: String
    let nextStatus: FormField
    let nextStatusLabel: String
    let deleteURL: String

    init(_ gift: Gift) {
        id = gift.id
        name = gift.fields.name
        status = gift.fields.status.label
        amount = gift.fields.amount?.displayText
        date = gift.fields.date?.dayMonthYear
        // Only web links become links; anything else shows as text.
        let url = gift.fields.url
        link = url.flatMap { $0.lowercased().hasPrefix("https://") || $0.lowercased().hasPrefix("http://") ? $0 : nil }
        comment = gift.fields.comment
        statusURL = GiftPaths.status(gift.id).path
        // An idea becomes given; given or received goes back to an idea.
        nextStatus = .hidden(
            "status", value: gift.fields.status == .idea ? GiftStatus.offered.rawValue : GiftStatus.idea.rawValue)
        nextStatusLabel = gift.fields.status == .idea ? "Mark as given" : "Back to ideas"
        deleteURL = GiftPaths.delete(gift.id).path
    }
}

/// The contact page's gifts, ideas first, and the form for a new one.
struct ContactGiftsSection: Encodable {
    static let shownOnPage = 50

    let items: [GiftLine]
    let addURL: String
    let nameField: FormField
    let statusField: FormField
    let amountField: FormField
    let currencyField: FormField
    let urlField: FormField
    let isAdding: Bool

    init(contact: Contact, gifts: [Gift], problem: FormProblem?) {
        items = gifts.sorted { $0.fields.status == .idea && $1.fields.status != .idea }.map(GiftLine.init)
        addURL = GiftPaths.contactGifts(contact.id).path
        let error = problem?.message(for: .gift)
        isAdding = error != nil
        let status = problem?.typed("status", in: .gift) ?? GiftStatus.idea.rawValue
        let name = contact.fields.firstName
        nameField = FormField(
            "name", label: "Gift", value: problem?.typed("name", in: .gift), error: error, isRequired: true,
            maxLength: GiftDraft.maximumNameLength
        ).identified(as: "new-gift-name")
        statusField = FormField(
            "status", label: "Status", control: .select,
            options: [
                SelectOption(value: "idea", label: "An idea for \(name)", isSelected: status == "idea"),
                SelectOption(value: "offered", label: "Given to \(name)", isSelected: status == "offered"),
                SelectOption(value: "received", label: "Received from \(name)", isSelected: status == "received"),
            ]
        ).identified(as: "new-gift-status")
        amountField = FormField(
            "amount", label: "Price", value: problem?.typed("amount", in: .gift), hint: "Optional.",
            inputMode: "decimal", maxLength: 20
        ).identified(as: "new-gift-amount")
        currencyField = FormField(
            "currency", label: "Currency", value: problem?.typed("currency", in: .gift) ?? Money.defaultCurrency,
            maxLength: 3, size: 4
        ).identified(as: "new-gift-currency")
        urlField = FormField(
            "url", label: "Link", control: .url, value: problem?.typed("url", in: .gift), hint: "Where to find it.",
            maxLength: 2000
        ).identified(as: "new-gift-url")
    }
}
