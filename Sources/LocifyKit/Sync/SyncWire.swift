import Foundation
import LocifyAPI

/// One changed record of the feed, its `data` kept as the server sent it.
public struct SyncChange: Sendable, Equatable {
    public var type: String
    public var uuid: String
    public var id: Int
    public var revision: Int
    public var data: JSONValue
}

extension SyncChange {
    /// The changes of a page's `changes`, each missing its identity or record left out and counted.
    static func read(_ entries: JSONValue?, unreadable: inout Int) -> [SyncChange] {
        guard case .array(let entries) = entries ?? .array([]) else { return [] }
        var changes: [SyncChange] = []
        for entry in entries {
            guard let type = entry["type"]?.string, let uuid = entry["uuid"]?.string,
                let id = entry["id"]?.int, let revision = entry["revision"]?.int, let data = entry["data"],
                data.object != nil
            else {
                unreadable += 1
                continue
            }
            changes.append(SyncChange(type: type, uuid: uuid.lowercased(), id: id, revision: revision, data: data))
        }
        return changes
    }
}

/// A page of `GET /api/sharedcategories/{id}/sync`: a category someone shares with the account, read
/// as leniently as `SyncPage`. `present`, on the last page, holds the uuids the category has now by type.
public struct SharedPage: Sendable, Equatable {
    public var changes: [SyncChange]
    public var present: [String: Set<String>]?
    public var canEdit: Bool
    public var cursor: String
    public var hasMore: Bool
    public var unreadable: Int

    init(json: Data) throws {
        guard let page = try? JSONValue(parsing: json), let cursor = page["cursor"]?.string else {
            throw LocifyError.unexpectedAnswer("the shared category's page has no cursor")
        }
        self.cursor = cursor
        hasMore = page["has_more"]?.bool ?? false
        canEdit = page["can_edit"]?.bool ?? false
        var unreadable = 0
        changes = SyncChange.read(page["changes"], unreadable: &unreadable)
        self.unreadable = unreadable
        if case .object(let lists) = page["present"] ?? .null {
            var present: [String: Set<String>] = [:]
            for (type, list) in lists {
                guard case .array(let uuids) = list else { continue }
                present[type] = Set(uuids.compactMap { $0.string?.lowercased() })
            }
            self.present = present
        }
    }
}

public struct SyncDeletion: Sendable, Equatable {
    public var type: String
    public var uuid: String?
    public var id: Int
    public var revision: Int
}

/// A page of `GET /api/sync`. Read leniently: keys it does not know are ignored, a change missing its
/// identity is skipped (and counted) rather than failing the page.
public struct SyncPage: Sendable, Equatable {
    public var changes: [SyncChange]
    public var deletions: [SyncDeletion]
    public var cursor: String
    public var hasMore: Bool
    /// Entries that could not be read and were left out.
    public var unreadable: Int

    init(json: Data) throws {
        guard let page = try? JSONValue(parsing: json), let cursor = page["cursor"]?.string else {
            throw LocifyError.unexpectedAnswer("the sync feed's page has no cursor")
        }
        self.cursor = cursor
        hasMore = page["has_more"]?.bool ?? false
        var unreadable = 0
        changes = SyncChange.read(page["changes"], unreadable: &unreadable)
        deletions = []
        if case .array(let entries) = page["deletions"] ?? .array([]) {
            for entry in entries {
                guard let type = entry["type"]?.string, let id = entry["id"]?.int, let revision = entry["revision"]?.int
                else {
                    unreadable += 1
                    continue
                }
                deletions.append(
                    SyncDeletion(type: type, uuid: entry["uuid"]?.string?.lowercased(), id: id, revision: revision))
            }
        }
        self.unreadable = unreadable
    }
}

/// A change made on the device, as the outbox keeps it and `POST /api/sync` takes it.
public struct Mutation: Sendable, Equatable {
    public enum Operation: String, Sendable, Equatable {
        case create, update, delete
    }

    /// The client's number for it, going up as changes are made (the outbox's row id).
    public var id: Int
    public var type: String
    public var operation: Operation
    public var uuid: String
    public var baseRevision: Int?
    public var fields: [String: JSONValue]

    var json: JSONValue {
        .object([
            "id": .integer(id), "type": .string(type), "op": .string(operation.rawValue), "uuid": .string(uuid),
            "base_revision": baseRevision.map(JSONValue.integer) ?? .null, "fields": .object(fields),
        ])
    }
}

public struct SyncPush: Sendable, Equatable {
    public var clientID: String
    public var cursor: String?
    public var mutations: [Mutation]

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "client_id": .string(clientID), "mutations": .array(mutations.map(\.json)),
        ]
        if let cursor { members["cursor"] = .string(cursor) }
        return .object(members)
    }
}

/// What became of one pushed mutation.
public struct MutationResult: Sendable, Equatable {
    public var id: Int
    public var status: SyncPushStatus
    public var errors: [SyncFieldErrorResource]
    /// The record as the server has it once the push is done; nil once deleted or when refused.
    public var data: JSONValue?
    public var revision: Int?
}

public struct SyncPushAnswer: Sendable, Equatable {
    public var results: [MutationResult]
    public var cursor: String?

    init(json: Data) throws {
        guard let answer = try? JSONValue(parsing: json), case .array(let entries) = answer["results"] ?? .null else {
            throw LocifyError.unexpectedAnswer("the push's answer has no results")
        }
        cursor = answer["cursor"]?.string
        results = try entries.map { entry in
            guard let id = entry["id"]?.int,
                let status = entry["status"]?.string.flatMap(SyncPushStatus.init(rawValue:))
            else { throw LocifyError.unexpectedAnswer("a push result has no id or a status this SDK does not know") }
            var errors: [SyncFieldErrorResource] = []
            if case .array(let list) = entry["errors"] ?? .null {
                errors = list.map {
                    SyncFieldErrorResource(field: $0["field"]?.string, message: $0["message"]?.string ?? "")
                }
            }
            let data = entry["data"].flatMap { $0.object != nil ? $0 : nil }
            return MutationResult(id: id, status: status, errors: errors, data: data, revision: entry["revision"]?.int)
        }
    }
}
