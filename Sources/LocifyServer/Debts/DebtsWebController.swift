import LocifyCore
import Vapor

/// The contact page's debts: record one, change one, mark it paid back (or not), delete one. All work without
/// scripts and go back to the contact's page; a refused debt draws the page again with the problem beside
/// the form.
struct DebtsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(DebtPaths.contactDebts, use: addDebt)
        routes.post(DebtPaths.debt, use: editDebt)
        routes.post(DebtPaths.settle, use: settleDebt)
        routes.post(DebtPaths.delete, use: deleteDebt)
    }

    struct DebtForm: Content {
        var inDebt: String?
        var amount: String?
        var currency: String?
        var reason: String?

        enum CodingKeys: String, CodingKey {
            case inDebt = "in_debt"
            case amount, currency, reason
        }

        var typed: [String: String?] {
            ["in_debt": inDebt, "amount": amount, "currency": currency, "reason": reason]
        }

        /// The debt as typed; an amount that is no number is a problem, reported with the draft's own.
        func draft() -> (DebtDraft, [FieldError]) {
            let (amount, problems) = Money.typedAmount(self.amount, label: "Amount")
            return (DebtDraft(inDebt: inDebt, amount: amount, currency: currency, reason: reason), problems)
        }
    }

    func addDebt(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(DebtForm.self)
        return try await request.handleContactForm(.debt, contact: contactID, typed: form.typed) {
            let (draft, problems) = form.draft()
            _ = try await request.debts().create(contactID: contactID, draft, typeErrors: problems)
            return .redirect(to: ContactPaths.contact(contactID).path + "#debts", flash: "The debt was saved.")
        }
    }

    /// The form's fields replace the debt's; whether it was paid back stays.
    func editDebt(request: Request) async throws -> Response {
        let debts = try request.debts()
        let debt = try await debts.debt(try request.pathID(.debtID))
        let form = try request.content.decode(DebtForm.self)
        return try await request.handleContactForm(
            .debt, contact: debt.contactID, item: debt.id, typed: form.typed
        ) {
            let (typed, problems) = form.draft()
            _ = try await debts.update(debt.id, typeErrors: problems) { stored in
                var changed = typed
                changed.status = stored.status
                return changed
            }
            return .redirect(
                to: ContactPaths.contact(debt.contactID).path + "#debt-\(debt.id)", flash: "The debt was saved.")
        }
    }

    func settleDebt(request: Request) async throws -> Response {
        let debts = try request.debts()
        let debt = try await debts.debt(try request.pathID(.debtID))
        let settled = !debt.fields.isSettled
        _ = try await debts.update(debt.id) { draft in
            var changed = draft
            changed.status = settled ? "completed" : "inprogress"
            return changed
        }
        return request.redirect(
            to: ContactPaths.contact(debt.contactID).path + "#debts",
            flash: settled ? "The debt is paid back." : "The debt is open again.")
    }

    func deleteDebt(request: Request) async throws -> Response {
        let debt = try await request.debts().debt(try request.pathID(.debtID))
        try await request.debts().delete(debt.id)
        return request.redirect(
            to: ContactPaths.contact(debt.contactID).path + "#debts", flash: "The debt was deleted.")
    }
}
