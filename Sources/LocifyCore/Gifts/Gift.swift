import Foundation

/// Where a gift stands, in Monica's words.
public enum GiftStatus: String, CaseIterable, Sendable {
    case idea, offered, received

    /// How the contact page says it.
    public var label: String {
        switch self {
        case .idea: "Idea"
        case .offered: "Given"
        case .received: "Received"
        }
    }
}

/// A gift for or from a contact, checked.
public struct GiftFields: Equatable, Sendable {
    public var name: String
    public var status: GiftStatus
    public var comment: String?
    public var url: String?
    public var amount: Money?
    /// The day it was given or received.
    public var date: CalendarDate?
    /// Another of the owner's contacts it is meant for (Monica's `recipient`: a gift for a contact's child).
    public var recipientID: Int?

    public init(
        name: String, status: GiftStatus, comment: String? = nil, url: String? = nil, amount: Money? = nil,
        date: CalendarDate? = nil, recipientID: Int? = nil
    ) {
        self.name = name
        self.status = status
        self.comment = comment
        self.url = url
        self.amount = amount
        self.date = date
        self.recipientID = recipientID
    }
}

/// A stored gift of one of the owner's contacts.
public struct Gift: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public var fields: GiftFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: GiftFields, createdAt: Date, updatedAt: Date
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

/// A gift as typed.
public struct GiftDraft: Sendable {
    public var name: String?
    public var status: String?
    public var comment: String?
    public var url: String?
    public var amount: Double?
    public var currency: String?
    /// `YYYY-MM-DD`, or a date-time whose day is taken.
    public var date: String?
    public var recipientID: Int?

    public init(
        name: String? = nil, status: String? = nil, comment: String? = nil, url: String? = nil, amount: Double? = nil,
        currency: String? = nil, date: String? = nil, recipientID: Int? = nil
    ) {
        self.name = name
        self.status = status
        self.comment = comment
        self.url = url
        self.amount = amount
        self.currency = currency
        self.date = date
        self.recipientID = recipientID
    }

    public init(_ fields: GiftFields) {
        self.init(
            name: fields.name, status: fields.status.rawValue, comment: fields.comment, url: fields.url,
            amount: fields.amount?.majorUnits,
            currency: fields.amount?.currency, date: fields.date?.description, recipientID: fields.recipientID)
    }

    public static let maximumNameLength = 255
    /// 100,000 characters (Monica takes 1,000,000): written as JSON escapes, the longest still fits a 2 MB
    /// body with the rest of the record (`BodyLimit.longText`).
    public static let maximumCommentLength = 100_000
    /// A link, which no address needs longer (Monica takes 1,000,000).
    public static let maximumURLLength = 10_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "name": "Name", "status": "Status", "comment": "Comment", "url": "Link",
        "amount": "Amount", "currency": "Currency", "date": "Date", "recipient_id": "Recipient",
    ]

    public func validated() throws(ValidationFailure) -> GiftFields {
        var check = FieldChecker()
        let name = check.text(name, field: "name", label: "Name", limit: Self.maximumNameLength)
        if name == nil { check.fail("name", "The name of the gift is required.") }
        var status: GiftStatus?
        if let text = self.status?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty {
            status = GiftStatus(rawValue: text)
            if status == nil { check.fail("status", "The status must be idea, offered or received.") }
        } else {
            check.fail("status", "The status of the gift is required.")
        }
        let comment = check.text(comment, field: "comment", label: "Comment", limit: Self.maximumCommentLength)
        let url = check.text(url, field: "url", label: "Link", limit: Self.maximumURLLength)
        let money = Money.checked(amount: amount, currency: currency, check: &check)
        var day: CalendarDate?
        if let text = date?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            day = MomentText.day(from: text)
            if day == nil { check.fail("date", "The date of the gift is not a valid date.") }
        }
        guard let name, let status else { throw ValidationFailure(check.errors) }
        return try check.finish(
            GiftFields(
                name: name, status: status, comment: comment, url: url, amount: money, date: day,
                recipientID: recipientID))
    }
}
