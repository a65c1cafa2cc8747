import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page changes its gifts, debts, pets and life events in place: each has an Edit menu whose
/// form is filled with what is stored; a refused change shows beside that form, open, and changes nothing;
/// another account's record is not found. New amounts are offered in the currency used last.
final class ContactRecordEditingWebTests: XCTestCase {
    func testGiftsDebtsPetsAndLifeEventsAreChangedFromTheContactPage() async throws {
        try await forEachDatabase { app, clock, database in
            let browser = WebClient(app: app)
            let page = try await browser.registerWithContact()
            let contactID = try XCTUnwrap(Int(page.split(separator: "/").last ?? ""))
            let api = try await app.apiAccount(email: "grace@example.com")
            var detail = try await browser.get(page)
            XCTAssertTrue(
                detail.text.contains(
                    #"id="new-gift-currency" name="currency" type="text" autocomplete="off" value="USD""#),
                "\(database): dollars until another currency is used")

            let giftID = try await app.createdID(
                by: api, "/api/gifts",
                #"{"contact_id": \#(contactID), "name": "Lab coat", "status": "idea", "amount": 45, "currency": "EUR"}"#
            )
            clock.advance(by: 60)
            let debtID = try await app.createdID(
                by: api, "/api/debts",
                #"{"contact_id": \#(contactID), "in_debt": "yes", "status": "inprogress", "amount": 20, "currency": "CHF", "reason": "Lunch"}"#
            )
            let petID = try await app.createdID(
                by: api, "/api/pets", #"{"contact_id": \#(contactID), "pet_category_id": 3, "name": "Pierre"}"#)
            let eventID = try await app.createdID(
                by: api, "/api/lifeevents",
                #"{"contact_id": \#(contactID), "life_event_type_id": 1, "happened_at": "2024-05-01", "name": "New lab"}"#
            )

            detail = try await browser.get(page)
            for filled in [
                #"id="gift-\#(giftID)-name" name="name" type="text" autocomplete="off" value="Lab coat""#,
                #"id="gift-\#(giftID)-amount" name="amount" type="text" autocomplete="off" value="45.00""#,
                #"id="debt-\#(debtID)-currency" name="currency" type="text" autocomplete="off" value="CHF""#,
                #"id="pet-\#(petID)-name" name="name" type="text" autocomplete="off" value="Pierre""#,
                #"id="life-event-\#(eventID)-date" name="happened_at" type="date" autocomplete="off" value="2024-05-01""#,
                // The debt was the last amount written: a new gift or debt is offered in francs.
                #"id="new-gift-currency" name="currency" type="text" autocomplete="off" value="CHF""#,
                #"id="new-debt-currency" name="currency" type="text" autocomplete="off" value="CHF""#,
            ] {
                XCTAssertTrue(detail.text.contains(filled), "\(database): \(filled)")
            }

            // Changes.
            let gift = try await browser.post(
                "/gifts/\(giftID)",
                form: [
                    "name": "Lab coat, white", "status": "offered", "amount": "52,50", "currency": "eur",
                    "url": "https://example.com/coat", "comment": "Her size is M",
                ])
            XCTAssertEqual(gift.status, .seeOther, gift.text)
            XCTAssertEqual(gift.headers.first(name: .location), page + "#gift-\(giftID)")
            let storedGift = try await app.send(.GET, "/api/gifts/\(giftID)", headers: api.bearer)
                .decoded(DataEnvelope<GiftResource>.self).data
            XCTAssertEqual(
                [
                    storedGift.name, storedGift.status, storedGift.amountWithCurrency, storedGift.comment,
                    storedGift.url,
                ],
                ["Lab coat, white", "offered", "€52.50", "Her size is M", "https://example.com/coat"])
            let debt = try await browser.post(
                "/debts/\(debtID)", form: ["in_debt": "no", "amount": "25", "currency": "CHF", "reason": "Dinner"])
            XCTAssertEqual(debt.status, .seeOther, debt.text)
            let storedDebt = try await app.send(.GET, "/api/debts/\(debtID)", headers: api.bearer)
                .decoded(DataEnvelope<DebtResource>.self).data
            XCTAssertEqual(
                [storedDebt.inDebt, storedDebt.status, storedDebt.amountWithCurrency, storedDebt.reason],
                ["no", "inprogress", "25.00 CHF", "Dinner"])
            let pet = try await browser.post("/pets/\(petID)", form: ["pet_category_id": "4", "name": "Rex"])
            XCTAssertEqual(pet.status, .seeOther, pet.text)
            let storedPet = try await app.send(.GET, "/api/pets/\(petID)", headers: api.bearer)
                .decoded(DataEnvelope<PetResource>.self).data
            XCTAssertEqual([storedPet.name, storedPet.petCategory.name], ["Rex", "dog"])
            let event = try await browser.post(
                "/life-events/\(eventID)",
                form: ["life_event_type_id": "2", "happened_at": "2023-02-03", "name": "", "note": "At last"])
            XCTAssertEqual(event.status, .seeOther, event.text)
            let storedEvent = try await app.send(.GET, "/api/lifeevents/\(eventID)", headers: api.bearer)
                .decoded(DataEnvelope<LifeEventResource>.self).data
            XCTAssertEqual(storedEvent.happenedAt, "2023-02-03T00:00:00Z")
            XCTAssertNil(storedEvent.name)
            XCTAssertEqual(storedEvent.note, "At last")

            // Refusals: beside the form, which stays open with what was typed; nothing changes.
            let revisions = try await app.send(.GET, "/api/sync", headers: api.bearer).text
            for (path, form, message, field) in [
                (
                    "/gifts/\(giftID)", ["name": " ", "amount": "lots"], "Price must be a number.",
                    "gift-\(giftID)-name"
                ),
                (
                    "/debts/\(debtID)", ["in_debt": "no", "amount": "-3"], "The amount must be between",
                    "debt-\(debtID)-direction"
                ),
                (
                    "/pets/\(petID)", ["pet_category_id": "", "name": "Kept as typed"], "Choose the kind of animal.",
                    "pet-\(petID)-category"
                ),
                (
                    "/life-events/\(eventID)", ["life_event_type_id": "2", "happened_at": "2023-02-30"],
                    "The date of the event is not a valid date.", "life-event-\(eventID)-type"
                ),
            ] {
                let refused = try await browser.post(path, form: form)
                XCTAssertEqual(refused.status, .unprocessableEntity, "\(path): \(refused.text)")
                XCTAssertTrue(refused.text.contains(#"id="\#(field)-error">"#), "\(path) shows its problem by its form")
                XCTAssertTrue(refused.text.contains(message), "\(path): \(refused.text)")
                XCTAssertTrue(refused.text.contains(#"<details class="menu" open>"#), "\(path): its form is open")
            }
            let refusedPet = try await browser.post(
                "/pets/\(petID)", form: ["pet_category_id": "", "name": "Kept as typed"])
            XCTAssertTrue(refusedPet.text.contains(#"value="Kept as typed""#), "what was typed stays")
            let unchanged = try await app.send(.GET, "/api/sync", headers: api.bearer).text
            XCTAssertEqual(unchanged, revisions, "refused changes wrote nothing")

            // Another account's records are not found, and stay as they are.
            let stranger = WebClient(app: app)
            _ = try await stranger.register(name: "Eve", email: "eve@example.com")
            for path in ["/gifts/\(giftID)", "/debts/\(debtID)", "/pets/\(petID)", "/life-events/\(eventID)"] {
                let foreign = try await stranger.post(
                    path, form: ["name": "Mine", "amount": "1", "pet_category_id": "3"])
                XCTAssertEqual(foreign.status, .notFound, path)
            }
            let stillRex = try await app.send(.GET, "/api/pets/\(petID)", headers: api.bearer)
                .decoded(DataEnvelope<PetResource>.self).data
            XCTAssertEqual(stillRex.name, "Rex")
        }
    }
}
