import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's gifts.
    func gifts() throws -> GiftService {
        GiftService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each gift with its contact, the contacts read in one query.
    func giftResources(_ gifts: [Gift]) async throws -> [GiftResource] {
        let base = baseURL
        let year = today.year
        let recipients = try await contacts().contacts(gifts.compactMap(\.fields.recipientID))
        return try await resources(gifts, contactOf: \.contactID) { gift, contact in
            GiftResource(
                gift,
                recipient: gift.fields.recipientID.flatMap { recipients[$0] }.map {
                    contactShortResource($0, currentYear: year, baseURL: base)
                }, contact: contact)
        }
    }
}
