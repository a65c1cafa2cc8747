import LocifyCore
import Vapor

/// The contact page's gifts: note one, change one, mark it given (or back to an idea), delete one. All work without
/// scripts and go back to the contact's page; a refused gift draws the page again with the problem beside
/// the form.
struct GiftsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(GiftPaths.contactGifts, use: addGift)
        routes.post(GiftPaths.gift, use: editGift)
        routes.post(GiftPaths.status, use: changeStatus)
        routes.post(GiftPaths.delete, use: deleteGift)
    }

    struct GiftForm: Content {
        var name: String?
        var status: String?
        var amount: String?
        var currency: String?
        var url: String?
        var comment: String?

        var typed: [String: String?] {
            ["name": name, "status": status, "amount": amount, "currency": currency, "url": url, "comment": comment]
        }

        /// The gift as typed; a price that is no number is a problem, reported with the draft's own.
        func draft() -> (GiftDraft, [FieldError]) {
            let (amount, problems) = Money.typedAmount(self.amount, label: "Price")
            return (
                GiftDraft(
                    name: name, status: status, comment: comment, url: url, amount: amount,
                    currency: amount == nil ? nil : currency), problems
            )
        }
    }

    func addGift(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(GiftForm.self)
        return try await request.handleContactForm(.gift, contact: contactID, typed: form.typed) {
            let (draft, problems) = form.draft()
            _ = try await request.gifts().create(contactID: contactID, draft, typeErrors: problems)
            return .redirect(to: ContactPaths.contact(contactID).path + "#gifts", flash: "The gift was saved.")
        }
    }

    /// The form's fields replace the gift's; what the form does not show (its date, its recipient) stays.
    func editGift(request: Request) async throws -> Response {
        let gifts = try request.gifts()
        let gift = try await gifts.gift(try request.pathID(.giftID))
        let form = try request.content.decode(GiftForm.self)
        return try await request.handleContactForm(
            .gift, contact: gift.contactID, item: gift.id, typed: form.typed
        ) {
            let (typed, problems) = form.draft()
            _ = try await gifts.update(gift.id, typeErrors: problems) { stored in
                var changed = typed
                changed.date = stored.date
                changed.recipientID = stored.recipientID
                return changed
            }
            return .redirect(
                to: ContactPaths.contact(gift.contactID).path + "#gift-\(gift.id)", flash: "The gift was saved.")
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
