import LocifyAPI
import LocifyCore
import Vapor

/// `/api/debts` and `/api/contacts/{id}/debts`. A debt stays with its contact; an update keeps what it
/// leaves out (Monica requires every key again).
enum DebtsAPIController {
    static let routes = ContactRecordRoutes<DebtsTable, TimestampSortField, Debt, DebtInput, DebtResource>(
        list: DebtPaths.api, record: DebtPaths.apiDebt, recordID: .debtID, contactList: DebtPaths.apiContactDebts,
        bodyLimit: .longText, defaultSort: DebtService.defaultSort,
        emptyInput: { DebtInput(draft: DebtDraft(), presentKeys: []) }, contactID: \.contactID, id: \.id,
        page: { request, contactID, query in
            try await request.debts().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.debts().debt(id) },
        create: { request, contactID, input, uuid in
            try await request.debts().create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
        },
        update: { request, id, input in
            try await request.debts().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id in try await request.debts().delete(id) },
        resources: { request, debts in try await request.debtResources(debts) })
}
