import LocifyAPI
import LocifyCore
import Vapor

/// `/api/calls` and `/api/contacts/{id}/calls`: newest call first, and `meta.statistics` counting the whole
/// account's calls by year, as Monica does. A call stays with its contact (Monica's update ignores
/// `contact_id` too); what an update leaves out is kept.
enum CallsAPIController {
    static let routes = ContactRecordRoutes<CallsTable, CallSortField, Call, CallInput, CallResource>(
        list: CallPaths.api, record: CallPaths.apiCall, recordID: .callID, contactList: CallPaths.apiContactCalls,
        bodyLimit: .longText, defaultSort: CallService.defaultSort,
        emptyInput: { CallInput(draft: CallDraft(), presentKeys: []) }, contactID: \.contactID, id: \.id,
        page: { request, contactID, query in
            try await request.calls().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.calls().call(id) },
        create: { request, contactID, input, uuid in
            try await request.calls().create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
        },
        update: { request, id, input in
            try await request.calls().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id in try await request.calls().delete(id) },
        resources: { request, calls in try await request.callResources(calls) },
        statistics: { request in YearlyCounts(try await request.calls().yearlyCounts()) })
}
