import Foundation
import LocifyCore

/// One of Monica's emotions, as a call or an activity names it.
public struct EmotionResource: Codable, Sendable, Equatable {
    public var id: Int
    public var object = "emotion"
    public var name: String

    public init(_ emotion: Emotion) {
        id = emotion.id
        name = emotion.name
    }
}

/// Monica's call, with Locify's `contact_id` after its keys (as on notes).
public struct CallResource: Codable, Sendable, Equatable {
    public var id: Int
    public var uuid: String
    public var object = "call"
    public var calledAt: String
    @Nullable public var content: String?
    public var contactCalled: Bool
    public var emotions: [EmotionResource]
    public var url: String
    public var account: AccountReference
    public var contact: ContactShortResource
    public var createdAt: String
    public var updatedAt: String
    public var contactID: Int

    enum CodingKeys: String, CodingKey {
        case id, uuid, object
        case calledAt = "called_at"
        case content
        case contactCalled = "contact_called"
        case emotions, url, account, contact
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case contactID = "contact_id"
    }

    public init(_ call: Call, url: String, contact: ContactShortResource) {
        id = call.id
        uuid = call.uuid.lowercasedText
        calledAt = Timestamp.string(call.fields.calledAt)
        content = call.fields.content
        contactCalled = call.fields.contactCalled
        emotions = call.fields.emotions.map(EmotionResource.init)
        self.url = url
        account = AccountReference(id: call.ownerID)
        self.contact = contact
        createdAt = Timestamp.string(call.createdAt)
        updatedAt = Timestamp.string(call.updatedAt)
        contactID = call.contactID
    }
}

/// The body of the call routes, read leniently like `ContactInput`.
public struct CallInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var draft = CallDraft()
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init(contactID: Int? = nil, draft: CallDraft, presentKeys: Set<String>) {
        self.contactID = contactID
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: CallDraft.fieldLabels)
        contactID = reader.integer("contact_id")
        draft.calledAt = reader.string("called_at")
        draft.content = reader.string("content")
        draft.contactCalled = reader.boolean("contact_called")
        draft.emotionIDs = reader.integerList("emotions")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores. Monica empties what an update
    /// leaves out; Locify keeps it, so a client (or a sync push) sends only what changed.
    public func merged(into existing: CallDraft) -> CallDraft {
        var result = existing
        if presentKeys.contains("called_at") { result.calledAt = draft.calledAt }
        if presentKeys.contains("content") { result.content = draft.content }
        if presentKeys.contains("contact_called") { result.contactCalled = draft.contactCalled }
        if presentKeys.contains("emotions") { result.emotionIDs = draft.emotionIDs ?? [] }
        return result
    }
}

/// How many records each year holds, newest year first: Monica's `meta.statistics` on the call and
/// activity lists (`{"2024": 3, "2023": 1}`; PHP's empty array, `[]`, when there are none).
public struct YearlyCounts: Codable, Sendable, Equatable {
    public struct Year: Sendable, Equatable {
        public var year: Int
        public var count: Int

        /// The year as its key: four digits at least (`0987`), as a date writes it.
        public var key: String {
            let digits = String(year)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    public var years: [Year]

    public init(_ years: [(year: Int, count: Int)]) {
        self.years = years.map { Year(year: $0.year, count: $0.count) }
    }

    private struct YearKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        if years.isEmpty {
            _ = encoder.unkeyedContainer()
            return
        }
        var container = encoder.container(keyedBy: YearKey.self)
        for year in years { try container.encode(year.count, forKey: YearKey(stringValue: year.key)) }
    }

    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: YearKey.self) else {
            years = []
            return
        }
        var years: [Year] = []
        for key in container.allKeys {
            guard let year = Int(key.stringValue) else { continue }
            years.append(Year(year: year, count: try container.decode(Int.self, forKey: key)))
        }
        self.years = years.sorted { $0.year > $1.year }
    }
}
