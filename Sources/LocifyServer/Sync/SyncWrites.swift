import FluentKit
import Foundation
import LocifyAPI
import LocifyCore
import Vapor

/// How a push's mutations of one type are carried out: through the type's own input reader and service,
/// so a mutation is checked, and refused, exactly as the type's own route would check and refuse it.
/// Each feature declares its own beside its `SyncedType`
/// (`SyncedType(NotesTable.self, writes: .note) { … }`).
struct SyncWrites: Sendable {
    /// The keys `fields` may hold: those the type's own route reads, and `references`.
    let fields: Set<String>
    /// `fields` sorted and space-separated, made once: every page with an offline form names them.
    let fieldList: String
    let references: [SyncReference]
    /// Makes the record named `uuid` from `fields` (a JSON object) and returns its id.
    let create: @Sendable (_ request: Request, _ uuid: UUID, _ fields: Data) async throws -> Int
    /// Changes the fields named; the others keep their values.
    let update: @Sendable (_ request: Request, _ id: Int, _ fields: Data) async throws -> Void
    /// Deletes the record; `fields` say what a delete may need (where a category's places go).
    let delete: @Sendable (_ request: Request, _ id: Int, _ fields: [String: JSONValue]) async throws -> Void

    /// `fields` are read as `Input`, the body of the type's own route.
    init<Input: Decodable>(
        reading input: Input.Type, fields: Set<String>, references: [SyncReference] = [],
        create: @escaping @Sendable (Request, Input, UUID) async throws -> Int,
        update: @escaping @Sendable (Request, Int, Input) async throws -> Void,
        delete: @escaping @Sendable (Request, Int, [String: JSONValue]) async throws -> Void
    ) {
        self.fields = fields.union(references.map(\.field))
        fieldList = self.fields.sorted().joined(separator: " ")
        self.references = references
        self.create = { request, uuid, fields in try await create(request, try Self.read(input, from: fields), uuid) }
        self.update = { request, id, fields in try await update(request, id, try Self.read(input, from: fields)) }
        self.delete = delete
    }

    private static func read<Input: Decodable>(_ input: Input.Type, from fields: Data) throws -> Input {
        do {
            return try JSONDecoder().decode(Input.self, from: fields)
        } catch {
            // The push checked that `fields` is an object; the readers are lenient about every value.
            throw ValidationFailure(field: "fields", "The fields could not be read: \(error.localizedDescription)")
        }
    }
}

/// A field that names another record by the uuid a client made it with (`contact_uuid`), for a record
/// made offline whose id the client does not know yet: the push puts the record's id in `idField`.
struct SyncReference: Sendable {
    let field: String
    let idField: String
    /// The other record's type, for messages (`contact`).
    let type: String
    let locator: SyncLocator

    init<Table: StoredTable>(_ field: String, for idField: String, in table: Table.Type) {
        self.field = field
        self.idField = idField
        type = Table.sync?.type ?? Table.name
        locator = SyncLocator(table)
    }

    /// The uuid `fields` name the other record by, when they name one.
    func uuid(in fields: [String: JSONValue]) -> UUID? {
        guard case .string(let text) = fields[field] ?? .null else { return nil }
        return UUID(uuidString: text)
    }
}
