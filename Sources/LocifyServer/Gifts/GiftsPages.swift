import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let gift = FormName("gift")
}

/// The fields of a gift's form: the one adding a gift (`item` nil) or the one editing gift `item`, filled
/// with what was typed when that form was refused, else with `stored`.
struct GiftFormFields: Encodable {
    let name: FormField
    let status: FormField
    let amount: FormField
    let currency: FormField
    let url: FormField
    let comment: FormField

    init(contactName: String, stored: GiftFields?, item: Int?, defaultCurrency: String, problem: FormProblem?) {
        let prefix = item.map { "gift-\($0)" } ?? "new-gift"
        func value(_ field: String, _ kept: String?) -> String? {
            problem?.typed(field, in: .gift, item: item) ?? kept
        }
        let status = value("status", stored?.status.rawValue) ?? GiftStatus.idea.rawValue
        name = FormField(
            "name", label: "Gift", value: value("name", stored?.name), error: problem?.message(for: .gift, item: item),
            isRequired: true, maxLength: GiftDraft.maximumNameLength
        ).identified(as: "\(prefix)-name")
        self.status = FormField(
            "status", label: "Status", control: .select,
            options: [
                SelectOption(value: "idea", label: "An idea for \(contactName)", isSelected: status == "idea"),
                SelectOption(value: "offered", label: "Given to \(contactName)", isSelected: status == "offered"),
                SelectOption(
                    value: "received", label: "Received from \(contactName)", isSelected: status == "received"),
            ]
        ).identified(as: "\(prefix)-status")
        amount = FormField(
            "amount", label: "Price", value: value("amount", stored?.amount?.decimalText), hint: "Optional.",
            inputMode: "decimal", maxLength: 20
        ).identified(as: "\(prefix)-amount")
        currency = FormField(
            "currency", label: "Currency", value: value("currency", stored?.amount?.currency) ?? defaultCurrency,
            maxLength: 3, size: 4
        ).identified(as: "\(prefix)-currency")
        url = FormField(
            "url", label: "Link", control: .url, value: value("url", stored?.url), hint: "Where to find it.",
            maxLength: 2000
        ).identified(as: "\(prefix)-url")
        comment = FormField(
            "comment", label: "Comment", control: .textarea, value: value("comment", stored?.comment),
            maxLength: GiftDraft.maximumCommentLength, rows: 2
        ).identified(as: "\(prefix)-comment")
    }
}

/// One gift as a contact page lists it, with its form for changes.
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
    let editURL: String
    let fields: GiftFormFields
    let isEditing: Bool
    let deleteURL: String

    init(_ gift: Gift, contactName: String, defaultCurrency: String, problem: FormProblem?) {
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
        editURL = GiftPaths.gift(gift.id).path
        fields = GiftFormFields(
            contactName: contactName, stored: gift.fields, item: gift.id, defaultCurrency: defaultCurrency,
            problem: problem)
        isEditing = problem?.message(for: .gift, item: gift.id) != nil
        deleteURL = GiftPaths.delete(gift.id).path
    }
}

/// The contact page's gifts, ideas first, and the form for a new one.
struct ContactGiftsSection: Encodable {
    static let shownOnPage = 50

    let items: [GiftLine]
    let addURL: String
    let fields: GiftFormFields
    let isAdding: Bool

    init(contact: Contact, gifts: [Gift], defaultCurrency: String, problem: FormProblem?) {
        let name = contact.fields.firstName
        items = gifts.sorted { $0.fields.status == .idea && $1.fields.status != .idea }.map {
            GiftLine($0, contactName: name, defaultCurrency: defaultCurrency, problem: problem)
        }
        addURL = GiftPaths.contactGifts(contact.id).path
        fields = GiftFormFields(
            contactName: name, stored: nil, item: nil, defaultCurrency: defaultCurrency, problem: problem)
        isAdding = problem?.message(for: .gift) != nil
    }
}
