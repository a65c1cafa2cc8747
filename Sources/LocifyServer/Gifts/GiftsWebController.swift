import LocifyCore
import Vapor

/// The contact page's gifts: note one, mark it given (or back to an idea), delete one. All work without
/// scripts and go back to the contact's page; a refused gift draws the page again with the problem beside
/// the form.
struct GiftsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(GiftPaths.contactGifts, use: addGift)
        routes.post(GiftPaths.status, use: changeStatus)
        routes.post(GiftPaths.delete, use: deleteGift)
    }

    struct GiftForm: Content {
        var name: String?
        var status: String?
        var amount: String?
        var currency: String?
        var url: String?
    }

    func addGift(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(GiftForm.self)
        return try await request.handleContactForm(
            .gift, contact: contactID,
            typed: [
                "name": form.name, "status": form.status, "amount": form.amount, "currency": form.currency,
                "url": form.url,
            ]
        ) {
            let (amount, problems) = Money.typedAmount(form.amount, label: "Price")
            _ = try await request.gifts().create(
                contactID: contactID,
                GiftDraft(
                    name: form.name, status: form.status, url: form.url, amount: amount,
                    currency: amount == nil ? nil : form.currency),
                typeErrors: problems)
            return .redirect(to: ContactPaths.contact(contactID).path + "#gifts", flash: "The gift was saved.")
        }
    }

    struct StatusForm: Content {
        var status: String?
    }

    func changeStatus(request: Request) async throws -> Response {
        let gifts = try request.gifts()
        let gift = try await gifts.gift(try request.pathID(.giftID))
        let form = try request.content.decode(StatusForm.self)
        let back = ContactPaths.contact(gift.contactID).path + "#gifts"
        return try await request.handleAction(returningTo: back) {
            _ = try await gifts.update(gift.id) { draft in
                var changed = draft
                changed.status = form.status
                return changed
            }
            return .redirect(to: back, flash: "The gift was changed.")
        }
    }

    func deleteGift(request: Request) async throws -> Response {
        let gift = try await request.gifts().gift(try request.pathID(.giftID))
        try await request.gifts().delete(gift.id)
        return request.redirect(
            to: ContactPaths.contact(gift.contactID).path + "#gifts", flash: "The gift was deleted.")
    }
}
