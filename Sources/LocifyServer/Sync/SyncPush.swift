import Foundation
import LocifyAPI
import LocifyCore

/// The body of `POST /api/sync`, checked as a whole before anything is applied: `client_id`, the
/// client's pull `cursor` (optional), and its `mutations` in the order it made them. A body that breaks
/// these rules (the OpenAPI document's) is refused whole; a mutation that breaks its type's rules, or
/// whose id does not go up from the one before it, is refused alone (`SyncPusher`).
struct SyncPush {
    enum Operation: String, CaseIterable {
        case create, update, delete
    }

    struct Mutation {
        /// The client's number for the mutation, going up with each it makes.
        let id: Int
        let type: SyncedType
        let writes: SyncWrites
        let operation: Operation
        let uuid: UUID
        /// The revision of the record the client last saw; nil when it names none.
        let baseRevision: Int?
        let fields: [String: JSONValue]
    }

    /// Most mutations one push may carry: a client with more sends them in several pushes, each its
    /// own transaction, so one push never holds the account's write lock for long.
    static let maximumMutations = 500
    static let maximumClientIDLength = 100
    /// The largest id and revision a push may name: the largest whole number JavaScript holds exactly.
    static let maximumNumber = 9_007_199_254_740_991

    let clientID: String
    let cursor: SyncCursor?
    let mutations: [Mutation]

    init(_ body: JSONValue, known: [SyncedType]) throws {
        guard let members = body.object else {
            throw ValidationFailure(
                field: "mutations", "The body must be a JSON object with client_id and mutations.")
        }
        var problems: [FieldError] = []
        func fail(_ field: String, _ message: String) { problems.append(FieldError(field: field, message: message)) }

        if case .string(let text) = members["client_id"] ?? .null,
            (1...Self.maximumClientIDLength).contains(text.unicodeScalars.count),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            clientID = text
        } else {
            clientID = ""
            fail(
                "client_id",
                "client_id must name this client: a text of 1 to \(Self.maximumClientIDLength) characters, the "
                    + "same on every push it makes (a uuid it keeps, say).")
        }

        switch members["cursor"] ?? .null {
        case .null, .string(""):
            cursor = nil
        case .string(let text) where SyncCursor(text: text) != nil:
            cursor = SyncCursor(text: text)
        default:
            cursor = nil
            fail("cursor", "The cursor is not one this server gave: send the last cursor a pull answered, or none.")
        }

        let writable = known.filter { $0.writes != nil }
        var mutations: [Mutation] = []
        guard case .array(let items) = members["mutations"] ?? .null else {
            fail("mutations", "mutations must be a list of changes (it may be empty).")
            throw ValidationFailure(problems)
        }
        if items.count > Self.maximumMutations {
            fail(
                "mutations",
                "A push carries at most \(Self.maximumMutations) mutations; this one has \(items.count): send "
                    + "the rest in the next push.")
            throw ValidationFailure(problems)
        }
        for (index, item) in items.enumerated() {
            let at = "mutations[\(index)]"
            guard let mutation = item.object else {
                fail(at, "Each mutation is an object with id, type, op, uuid, base_revision and fields.")
                continue
            }
            var id: Int?
            if case .integer(let number) = mutation["id"] ?? .null, (1...Self.maximumNumber).contains(number) {
                id = number
            } else {
                fail(
                    "\(at).id",
                    "The id must be a whole number from 1 to \(Self.maximumNumber), the client's number for this change."
                )
            }
            var type: SyncedType?
            if case .string(let name) = mutation["type"] ?? .null,
                let found = writable.first(where: { $0.name == name })
            {
                type = found
            } else {
                let named: String
                if case .string(let name) = mutation["type"] ?? .null, known.contains(where: { $0.name == name }) {
                    named = "A client cannot change records of type “\(name)” through a push. "
                } else {
                    named = ""
                }
                fail("\(at).type", named + "The type must be one of \(writable.map(\.name).joined(separator: ", ")).")
            }
            var operation: Operation?
            if case .string(let name) = mutation["op"] ?? .null, let found = Operation(rawValue: name) {
                operation = found
            } else {
                fail("\(at).op", "The op must be create, update or delete.")
            }
            var uuid: UUID?
            if case .string(let text) = mutation["uuid"] ?? .null, let found = UUID(uuidString: text) {
                uuid = found
            } else {
                fail(
                    "\(at).uuid",
                    "The uuid must name the record, such as 6a2f41a3-c54c-fce8-32d2-0324e1c32e22 (a create makes "
                        + "it up).")
            }
            var baseRevision: Int?
            switch mutation["base_revision"] ?? .null {
            case .null: baseRevision = nil
            case .integer(let number) where (0...Self.maximumNumber).contains(number): baseRevision = number
            default:
                fail("\(at).base_revision", "base_revision must be the record's revision the client last saw, or null.")
            }
            var fields: [String: JSONValue] = [:]
            switch mutation["fields"] ?? .null {
            case .null: break
            case .object(let members): fields = members
            default: fail("\(at).fields", "fields must be an object of the fields the person changed.")
            }
            if let id, let type, let writes = type.writes, let operation, let uuid {
                mutations.append(
                    Mutation(
                        id: id, type: type, writes: writes, operation: operation, uuid: uuid,
                        baseRevision: baseRevision, fields: fields))
            }
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        self.mutations = mutations
    }
}
