import LocifyAPI
import Vapor

extension SyncedType {
    static let reminder = SyncedType(RemindersTable.self) { request, ids in
        let reminders = try await request.ownedRows(
            ids, in: RemindersTable.self,
            selecting: RemindersTable.reminderColumns, read: RemindersTable.reminder(from:))
        return byID(try await request.reminderResources(reminders), id: \.id, as: SyncRecord.reminder)
    }
}
