import Foundation
import LocifyCore

/// Monica's gift, with `currency` (Locify keeps one per gift) and `contact_id` after its keys. `url` is
/// the gift's link (where to buy it), as in Monica.
public struct GiftResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "gift"
    public var name: String
    @Nullable public var comment: String?
    @Nullable public var url: String?
    @Nullable public var amount: String?
    /// The amount without its currency; `""` without one, as Monica.
    public var value: String
    public var amountWithCurrency: String
    /// `idea`, `offered` or `received`.
    public var status: String
    @Nullable public var date: String?
    @Nullable public var recipient: ContactShortResource?
    /// Monica's gift photos; Locify does not attach photos to gifts, so always empty.
    public var photos: [PhotoResource]
    public var contact: ContactShortResource
    public var account: AccountReference
    public var createdAt: String
    public var updatedAt: String
    @Nullable public var currency: String?
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object, name, comment, url, amount, value
        case amountWithCurrency = "amount_with_currency"
        case status, date, recipient, photos, contact, account
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case currency
        case contactID = "contact_id"
    }

    public init(_ gift: Gift, recipient: ContactShortResource?, contact: ContactShortResource) {
        id = gift.id
        uuid = gift.uuid.lowercasedText
        name = gift.fields.name
        comment = gift.fields.comment
        url = gift.fields.url
        amount = gift.fields.amount?.decimalText
        value = gift.fields.amount?.decimalText ?? ""
        amountWithCurrency = gift.fields.amount?.displayText ?? ""
        status = gift.fields.status.rawValue
        date = gift.fields.date?.description
        self.recipient = recipient
        photos = []
        self.contact = contact
        account = AccountReference(id: gift.ownerID)
        createdAt = Timestamp.string(gift.createdAt)
        updatedAt = Timestamp.string(gift.updatedAt)
        currency = gift.fields.amount?.currency
        contactID = gift.contactID
    }
}

/// The body of the gift routes, read leniently like `ContactInput`.
public struct GiftInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = GiftDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: GiftDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: GiftDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.name = reader.string("name")
        draft.status = reader.string("status")
        draft.comment = reader.string("comment")
        draft.url = reader.string("url")
        draft.amount = reader.number("amount")
        draft.currency = reader.string("currency")
        draft.date = reader.string("date")
        draft.recipientID = reader.integer("recipient_id")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores. Monica empties what an update leaves
    /// out; Locify keeps it.
    public func merged(into existing: GiftDraft) -> GiftDraft {
        var result = existing
        if presentKeys.contains("name") { result.name = draft.name }
        if presentKeys.contains("status") { result.status = draft.status }
        if presentKeys.contains("comment") { result.comment = draft.comment }
        if presentKeys.contains("url") { result.url = draft.url }
        if presentKeys.contains("amount") { result.amount = draft.amount }
        if presentKeys.contains("currency") { result.currency = draft.currency }
        if presentKeys.contains("date") { result.date = draft.date }
        if presentKeys.contains("recipient_id") { result.recipientID = draft.recipientID }
        return result
    }
}
