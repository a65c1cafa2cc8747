import Foundation
import LocifyCore

/// Monica's audit log entry (`object: "auditlog"`).
public struct AuditLogResource: Codable, Sendable, Equatable {
    public struct Author: Codable, Sendable, Equatable {
        public var id: Int
        public var name: String

        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// What the entry is about: the records' type, how many, the first hundred ids, and the contact every
    /// one of them is about when there is one.
    public struct Objects: Codable, Sendable, Equatable {
        public var type: String
        public var count: Int
        public var ids: [Int]
        @Nullable public var contactID: Int?

        enum CodingKeys: String, CodingKey {
            case type, count, ids
            case contactID = "contact_id"
        }

        public init(type: String, count: Int, ids: [Int], contactID: Int?) {
            self.type = type
            self.count = count
            self.ids = ids
            self.contactID = contactID
        }
    }

    public var id: Int
    public var object = "auditlog"
    public var author: Author
    /// `<type>_<created|updated|deleted>` (`contact_created`).
    public var action: String
    public var objects: Objects
    public var auditedAt: String
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, object, author, action, objects
        case auditedAt = "audited_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: Int, author: Author, action: String, objects: Objects, auditedAt: Date) {
        self.id = id
        self.author = author
        self.action = action
        self.objects = objects
        self.auditedAt = Timestamp.string(auditedAt)
        createdAt = self.auditedAt
        updatedAt = self.auditedAt
    }
}
