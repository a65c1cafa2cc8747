import Foundation

/// A phone call with a contact, checked: when, what was said, who called whom, and how it felt.
public struct CallFields: Equatable, Sendable {
    public var calledAt: Date
    public var content: String?
    /// True when the contact made the call.
    public var contactCalled: Bool
    public var emotions: [Emotion]

    public init(calledAt: Date, content: String? = nil, contactCalled: Bool = false, emotions: [Emotion] = []) {
        self.calledAt = calledAt
        self.content = content
        self.contactCalled = contactCalled
        self.emotions = emotions
    }
}

/// A stored call with one of the owner's contacts.
public struct Call: Equatable, Sendable {
    public let id: Int
    public let uuid: UUID
    public let ownerID: Int
    public let contactID: Int
    public var fields: CallFields
    public let createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, contactID: Int, fields: CallFields, createdAt: Date, updatedAt: Date
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

/// A call as typed: `calledAt` is text as clients send it (`2024-05-04`, `2024-05-04 10:06:05`, ISO 8601).
public struct CallDraft: Sendable {
    public var calledAt: String?
    public var content: String?
    public var contactCalled: Bool?
    public var emotionIDs: [Int]?

    public init(calledAt: String? = nil, content: String? = nil, contactCalled: Bool? = nil, emotionIDs: [Int]? = nil) {
        self.calledAt = calledAt
        self.content = content
        self.contactCalled = contactCalled
        self.emotionIDs = emotionIDs
    }

    public init(_ fields: CallFields) {
        self.init(
            calledAt: Timestamp.string(fields.calledAt), content: fields.content, contactCalled: fields.contactCalled,
            emotionIDs: fields.emotions.map(\.id))
    }

    public static let maximumContentLength = 100_000

    public static let fieldLabels: [String: String] = [
        "contact_id": "Contact", "called_at": "Date of the call", "content": "What you talked about",
        "contact_called": "Who called", "emotions": "Emotions",
    ]

    public func validated() throws(ValidationFailure) -> CallFields {
        var check = FieldChecker()
        let content = check.text(
            content, field: "content", label: "What you talked about", limit: Self.maximumContentLength)
        var moment: Date?
        if let text = calledAt?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            moment = MomentText.date(from: text)
            if moment == nil { check.fail("called_at", "The date of the call is not a valid date.") }
        } else {
            check.fail("called_at", "The date of the call is required.")
        }
        var emotions: [Emotion] = []
        for id in emotionIDs ?? [] where !emotions.contains(where: { $0.id == id }) {
            guard let emotion = Emotion.emotion(id) else {
                check.fail("emotions", "The selected emotion \(id) is invalid.")
                continue
            }
            emotions.append(emotion)
        }
        guard let moment else { throw ValidationFailure(check.errors) }
        return try check.finish(
            CallFields(calledAt: moment, content: content, contactCalled: contactCalled ?? false, emotions: emotions))
    }
}
