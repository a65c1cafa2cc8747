import LocifyCore
import Vapor

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
