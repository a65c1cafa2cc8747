import LocifyAPI
import LocifyCore
import Vapor

/// `/api/lifeevents` and `/api/contacts/{id}/lifeevents` (which Monica lacks). A life event stays with its
/// contact; an update keeps what it leaves out (Monica requires every key again).
enum LifeEventsAPIController {
    static let routes = ContactRecordRoutes<
        LifeEventsTable, TimestampSortField, LifeEvent, LifeEventInput, LifeEventResource
    >(
        list: LifeEventPaths.api, record: LifeEventPaths.apiLifeEvent, recordID: .lifeEventID,
        contactList: LifeEventPaths.apiContactLifeEvents, bodyLimit: .longText,
        defaultSort: LifeEventService.defaultSort,
        emptyInput: { LifeEventInput(draft: LifeEventDraft(), presentKeys: []) }, contactID: \.contactID, id: \.id,
        page: { request, contactID, query in
            try await request.lifeEvents().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.lifeEvents().lifeEvent(id) },
        create: { request, contactID, input, uuid in
            try await request.lifeEvents().create(
                contactID: contactID, input.draft, yearlyReminder: input.hasReminder, typeErrors: input.typeErrors,
                uuid: uuid)
        },
        update: { request, id, input in
            try await request.lifeEvents().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id in try await request.lifeEvents().delete(id) },
        resources: { request, events in try await request.lifeEventResources(events) })
}
