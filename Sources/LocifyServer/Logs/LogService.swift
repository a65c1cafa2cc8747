import Fluent
import Foundation
import LocifyCore
import SQLKit

/// One entry of the account's audit log.
struct AuditEntry: Sendable {
    let id: Int
    let action: String
    /// JSON, as written (`AuditLogTable.objects`).
    let objects: String
    let auditedAt: Date

    static let columns = AuditLogTable.selection([.id, .action, .objects, .auditedAt])

    static func read(_ row: PlainRow) throws -> AuditEntry {
        AuditEntry(
            id: try row.requiredInteger(0), action: try row.requiredText(1), objects: try row.requiredText(2),
            auditedAt: try row.requiredDate(3))
    }
}

/// The owner's audit log, newest first.
struct LogService {
    let database: any Database
    let ownerID: Int

    /// One page of the log, of one contact's records when `contactID` is given.
    func page(contactID: Int?, page: PageSelection) async throws -> ([AuditEntry], PageWindow) {
        var condition: SQLQueryString = #""user_id" = \#(literal: ownerID)"#
        if let contactID { condition += #" AND "about_contact_id" = \#(literal: contactID)"# }
        let total =
            try await database.plainRows(
                #"SELECT COUNT(*) AS "total" FROM "audit_logs" WHERE \#(condition)"#, columns: ["total"]
            ).first?.integer(0) ?? 0
        let rows = try await database.plainRows(
            """
            SELECT \(AuditEntry.columns.list) FROM "audit_logs" WHERE \(condition) ORDER BY "id" DESC \
            LIMIT \(literal: page.limit) OFFSET \(literal: page.offset)
            """, columns: AuditEntry.columns.names)
        return (try rows.map(AuditEntry.read), page.window(total: total))
    }

    func entry(_ id: Int) async throws -> AuditEntry {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: AuditLogTable.self, selecting: AuditEntry.columns, read: AuditEntry.read)
    }
}
