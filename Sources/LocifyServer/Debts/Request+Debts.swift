import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's debts.
    func debts() throws -> DebtService {
        DebtService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a debt input (see `jsonInput`).
    func debtInput() throws -> DebtInput {
        try jsonInput(DebtInput.self, empty: DebtInput(draft: DebtDraft(), presentKeys: []))
    }

    func debtResource(_ debt: Debt) async throws -> DebtResource {
        try await debtResources([debt])[0]
    }

    /// Each debt with its contact, the contacts read in one query.
    func debtResources(_ debts: [Debt]) async throws -> [DebtResource] {
        try await resources(debts, contactOf: \.contactID) { debt, contact in DebtResource(debt, contact: contact) }
    }
}
