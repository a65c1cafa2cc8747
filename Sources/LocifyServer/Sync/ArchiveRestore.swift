import FluentKit
import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// How the records of one synced type leave in an account archive and are made again from one, in
/// another account (Settings → Import and export, `locify export account`). Each feature declares its
/// own beside its `SyncedType` (`SyncedType(NotesTable.self, writes: .note, restore: .note) { … }`).
struct ArchiveRestore: Sendable {
    /// Makes the record anew, named `uuid`, and returns its id. It goes through the type's own service,
    /// so a record is checked, and refused, as its own route would check and refuse it.
    let create:
        @Sendable (_ request: Request, _ record: ArchivedRecord, _ uuid: UUID, _ ids: ArchiveIDs) async throws -> Int
    /// The account's own record that already stands for the archived one (a gender or a tag of the same
    /// name, made with the account), which the import uses instead of making a second.
    let existing: (@Sendable (_ request: Request, _ record: ArchivedRecord, _ ids: ArchiveIDs) async throws -> Int?)?
    /// Sets, once every record is in, what names records that come later or that the service takes only on
    /// a record already made: a contact's avatar, who introduced them, that they are archived.
    let finish:
        (@Sendable (_ request: Request, _ record: ArchivedRecord, _ id: Int, _ ids: ArchiveIDs) async throws -> Void)?
    /// What the archive keeps beside each record that its resource leaves out (a document's bytes), by id.
    let extras: (@Sendable (_ request: Request, _ ids: [Int]) async throws -> [Int: [String: JSONValue]])?
    /// `existing` finds records this import made a moment before with another (a relationship's reverse),
    /// which take the archive's times, instead of the account's own (its default genders), which keep theirs.
    let existingComesWithTheImport: Bool

    init(
        existing: (@Sendable (Request, ArchivedRecord, ArchiveIDs) async throws -> Int?)? = nil,
        existingComesWithTheImport: Bool = false,
        finish: (@Sendable (Request, ArchivedRecord, Int, ArchiveIDs) async throws -> Void)? = nil,
        extras: (@Sendable (Request, [Int]) async throws -> [Int: [String: JSONValue]])? = nil,
        create: @escaping @Sendable (Request, ArchivedRecord, UUID, ArchiveIDs) async throws -> Int
    ) {
        self.create = create
        self.existingComesWithTheImport = existingComesWithTheImport
        self.existing = existing
        self.finish = finish
        self.extras = extras
    }

    /// A type a sync push can create: `fields` reads the archived record into the fields of a push's
    /// create, and the push's own `create` makes it.
    init(
        writes: SyncWrites, existingComesWithTheImport: Bool = false,
        existing: (@Sendable (Request, ArchivedRecord, ArchiveIDs) async throws -> Int?)? = nil,
        finish: (@Sendable (Request, ArchivedRecord, Int, ArchiveIDs) async throws -> Void)? = nil,
        extras: (@Sendable (Request, [Int]) async throws -> [Int: [String: JSONValue]])? = nil,
        fields: @escaping @Sendable (ArchivedRecord, ArchiveIDs) throws -> [String: JSONValue]
    ) {
        self.init(
            existing: existing, existingComesWithTheImport: existingComesWithTheImport, finish: finish, extras: extras
        ) { request, record, uuid, ids in
            try await writes.create(request, uuid, try OrderedJSONEncoder().encode(try fields(record, ids)))
        }
    }
}

/// One record of an archive: its resource as the sync feed carried it, and the archive's extras.
struct ArchivedRecord: Sendable {
    let type: String
    let uuid: UUID
    /// Its id on the server it came from: what the archive's other records name it by.
    let id: Int
    let data: [String: JSONValue]
    let extra: [String: JSONValue]

    subscript(key: String) -> JSONValue { data[key] ?? .null }

    /// The text at `key`; nil for anything else.
    func text(_ key: String) -> String? {
        if case .string(let text) = self[key] { return text }
        return nil
    }

    /// The id `key` names: a number, or an object's `id` (`"contact": {"id": 4, …}`).
    func referencedID(_ key: String) -> Int? {
        Self.id(in: self[key])
    }

    static func id(in value: JSONValue) -> Int? {
        switch value {
        case .integer(let id): id
        case .object(let members): members["id"].flatMap { id(in: $0) }
        default: nil
        }
    }

    /// The values of `keys` as the record has them (a list of objects, such as emotions, becomes the list
    /// of their ids, as a route reads it), and each of `references` (a field of the create, and the type it
    /// names) as this account's id of the record the archive's id named. A reference is read from the field
    /// itself or from the object without its `_id` (`contact_id` from `contact`).
    func fields(_ keys: [String], references: [String: String] = [:], ids: ArchiveIDs) throws -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for key in keys {
            guard let value = data[key] else {
                // A fixed kind named by an object (`relationship_type_id` from `relationship_type`).
                if key.hasSuffix("_id"), let id = referencedID(String(key.dropLast(3))) { fields[key] = .integer(id) }
                continue
            }
            if case .array(let items) = value, !items.isEmpty, items.allSatisfy({ $0.object?["id"] != nil }) {
                fields[key] = .array(items.compactMap { Self.id(in: $0).map(JSONValue.integer) })
            } else {
                fields[key] = value
            }
        }
        for (field, type) in references {
            let old = referencedID(field) ?? (field.hasSuffix("_id") ? referencedID(String(field.dropLast(3))) : nil)
            fields[field] = try ids.id(of: type, old).map(JSONValue.integer) ?? .null
        }
        return fields
    }

    /// The first of `items` whose name is the record's, whatever the case: the account's own gender,
    /// field kind or category that stands for the archived one.
    func sameName<Item>(among items: [Item], name: (Item) -> String) -> Item? {
        guard let own = text("name") else { return nil }
        return items.first { name($0).localizedCaseInsensitiveCompare(own) == .orderedSame }
    }

    /// A few words that name the record in a report: its name, title or the start of its text.
    var label: String {
        for key in ["complete_name", "name", "title", "summary", "body", "content", "original_filename", "reason"] {
            if let text = text(key)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                return text.count > 40 ? String(text.prefix(39)) + "…" : text
            }
        }
        return "#\(id)"
    }
}

/// The ids an import gave the archive's records, by type and the id they had on the server they came
/// from.
struct ArchiveIDs: Sendable {
    private(set) var byType: [String: [Int: Int]] = [:]

    /// The record the archive named `type` `old` has since been refused or was not in the archive.
    struct Missing: Error {
        let type: String
    }

    mutating func note(_ type: String, _ old: Int, is new: Int) {
        byType[type, default: [:]][old] = new
    }

    /// This account's id of the record of `type` that was `old` in the archive; nil for nil.
    func id(of type: String, _ old: Int?) throws -> Int? {
        guard let old else { return nil }
        guard let new = byType[type]?[old] else { throw Missing(type: type) }
        return new
    }

    /// Each of `olds` as this account's id; those not imported are left out.
    func ids(of type: String, _ olds: [Int]) -> [Int] {
        olds.compactMap { byType[type]?[$0] }
    }

    mutating func merge(_ other: ArchiveIDs) {
        for (type, ids) in other.byType { byType[type, default: [:]].merge(ids) { _, new in new } }
    }
}
