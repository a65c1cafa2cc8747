import Vapor

extension LocifyApp {
    /// `locify sync status --email …`.
    public static func syncStatus(in app: Application, email: String) async throws -> SyncStatus {
        let account = try await requireAccount(in: app, email: email)
        return try await SyncStatus.read(ownerID: account.id, types: app.syncedTypes, on: app.db)
    }
}
