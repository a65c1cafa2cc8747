import LocifyAPI
import LocifyCore
import Vapor

/// `/api/gifts` and `/api/contacts/{id}/gifts`. A gift stays with its contact; an update keeps what it
/// leaves out (Monica empties it).
enum GiftsAPIController {
    static let routes = ContactRecordRoutes<GiftsTable, TimestampSortField, Gift, GiftInput, GiftResource>(
        list: GiftPaths.api, record: GiftPaths.apiGift, recordID: .giftID, contactList: GiftPaths.apiContactGifts,
        bodyLimit: .longText, defaultSort: GiftService.defaultSort,
        emptyInput: { GiftInput(draft: GiftDraft(), presentKeys: []) }, contactID: \.contactID, id: \.id,
        page: { request, contactID, query in
            try await request.gifts().page(contactID: contactID, sort: query.sort, page: query.page)
        },
        find: { request, id in try await request.gifts().gift(id) },
        create: { request, contactID, input, uuid in
            try await request.gifts().create(
                contactID: contactID, input.draft, typeErrors: input.typeErrors, uuid: uuid)
        },
        update: { request, id, input in
            try await request.gifts().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id in try await request.gifts().delete(id) },
        resources: { request, gifts in try await request.giftResources(gifts) })
}
