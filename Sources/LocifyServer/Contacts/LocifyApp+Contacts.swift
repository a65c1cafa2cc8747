import LocifyCore
import Vapor

/// The contact operations of the command line (`seed`).
extension LocifyApp {
    /// Fills the account with sample contacts; contacts whose email is already there are skipped,
    /// so running it twice does not duplicate them. Returns (created, skipped).
    public static func seedDemo(in app: Application, email: String) async throws -> (created: Int, skipped: Int) {
        let owner = try await requireAccount(in: app, email: email)
        let service = ContactService(database: app.db, owner: owner, dependencies: app.dependencies)
        let existing = try await service.emails()
        var created = 0
        for draft in DemoContacts.drafts where !existing.contains(draft.email ?? "") {
            _ = try await service.create(draft)
            created += 1
        }
        return (created, DemoContacts.drafts.count - created)
    }
}
