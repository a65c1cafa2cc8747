import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's debts.
    func debts() throws -> DebtService {
        DebtService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each debt with its contact, the contacts read in one query.
    func debtResources(_ debts: [Debt]) async throws -> [DebtResource] {
        try await resources(debts, contactOf: \.contactID) { debt, contact in DebtResource(debt, contact: contact) }
    }
}
