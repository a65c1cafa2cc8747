import LocifyAPI
import Vapor

extension SyncedType {
    static let reminder = SyncedType(RemindersTable.self) { request, ids in
        let reminders = try await request.db.ownedRows(
            ids, ownedBy: try request.requireUser().id, in: RemindersTable.self,
            selecting: RemindersTable.reminderColumns, read: RemindersTable.reminder(from:))
        return byID(try await request.reminderResources(reminders), id: \.id, as: SyncRecord.reminder)
    }
}
