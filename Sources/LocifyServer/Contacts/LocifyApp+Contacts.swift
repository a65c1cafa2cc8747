import LocifyCore
import Vapor

/// The contact operations of the command line (`seed`).
extension LocifyApp {
    /// Fills the account with sample contacts; contacts whose email is already there are skipped,
    /// so running it twice does not duplicate them. Returns (created, skipped).
    public static func seedDemo(in app: Application, email: String) async throws -> (created: Int, skipped: Int) {
        let owner = try await requireAccount(in: app, email: email)
        let service = ContactService(database: app.db, owner: owner, dependencies: app.dependencies)
        let existing = try await ContactFieldService(
            database: app.db, ownerID: owner.id, dependencies: app.dependencies
        )
        .allEmails()
        var created = 0
        for draft in DemoContacts.drafts where !existing.contains(draft.normalizedEmail ?? "") {
            _ = try await service.create(draft)
            created += 1
        }
        return (created, DemoContacts.drafts.count - created)
    }
}

/// The contact import and export of the command line.
extension LocifyApp {
    /// Imports a vCard file's contacts into the account; returns the report's lines, summary first.
    public static func importContacts(in app: Application, email: String, vCardText: String) async throws -> [String] {
        let report = try await interchange(in: app, email: email).importVCards(vCardText)
        return [report.summary] + report.skipped.map(\.sentence)
    }

    /// Every contact of the account as one vCard 4.0 file.
    public static func exportContacts(in app: Application, email: String) async throws -> String {
        try await interchange(in: app, email: email).exportVCards()
    }

    private static func interchange(in app: Application, email: String) async throws -> ContactInterchange {
        let owner = try await requireAccount(in: app, email: email)
        return ContactInterchange(
            contacts: ContactService(database: app.db, owner: owner, dependencies: app.dependencies),
            contactFields: ContactFieldService(database: app.db, ownerID: owner.id, dependencies: app.dependencies),
            addresses: AddressService(
                database: app.db, ownerID: owner.id, dependencies: app.dependencies,
                geocoderEnabled: app.locifyConfig.geocoder != .off, jobsQueued: {}),
            cpuWork: app.cpuWork)
    }
}
