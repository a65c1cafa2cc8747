import Fluent
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class ContactInterchangeTests: XCTestCase {
    /// Written by hand the way phones and Google Contacts write them: 3.0 TYPE parameters, a folded
    /// line, a card with no name, a broken line, an address that breaks its country's rule.
    static let phoneExport =
        [
            "BEGIN:VCARD", "VERSION:3.0", "N:Łukasiewicz;Jan;;;", "FN:Jan Łukasiewicz",
            "EMAIL;TYPE=INTERNET;TYPE=HOME:jan@example.pl", "TEL;TYPE=CELL:+48 22 123-45-67",
            "item1.URL:https://www.linkedin.com/in/janl", "URL:https://example.pl/jan", "BDAY:1878-12-21",
            "TEL;TYPE=WORK:" + String(repeating: "1", count: 300),
            "ADR;TYPE=HOME:;;ul. Długa 5;Warszawa;;00-238;Poland",
            "NOTE:Logician. This note is folded acr", " oss two lines.", "END:VCARD",
            "BEGIN:VCARD", "VERSION:3.0", "TEL;TYPE=CELL:+1 555 0100", "END:VCARD",
            "BEGIN:VCARD", "VERSION:4.0", "FN:Grace Hopper", "N:Hopper;Grace;;;", "this line is broken",
            "ADR;TYPE=work:;;1 Navy Rd;Arlington;VA;ABCDE;US", "ADR;TYPE=home:;;;New York;NY;;US", "END:VCARD",
        ].joined(separator: "\r\n") + "\r\n"

    func testAnImportLeavesPostgreSQLsStatisticsUpToDate() async throws {
        try await withApp(.postgres) { app, _ in
            // PostgreSQL only: SQLite keeps no planner statistics for these tables.
            let account = try await app.makeAccount()
            let before = try await app.plannerEstimate(ofRowsIn: "contacts")
            XCTAssertLessThanOrEqual(before, 0, "an empty table, never analysed")
            _ = try await LocifyApp.importContacts(in: app, email: account.email, vCardText: Self.phoneExport)
            let afterContacts = try await app.plannerEstimate(ofRowsIn: "contacts")
            let afterAddresses = try await app.plannerEstimate(ofRowsIn: "addresses")
            XCTAssertEqual(afterContacts, 2, "the planner knows the import's rows at once")
            XCTAssertEqual(afterAddresses, 2)
        }
    }

    func testAPhoneExportComesInWithAReportAndTwiceAddsNobodyTwice() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            _ = try await browser.register()
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains(#"enctype="multipart/form-data""#))
            let imported = try await browser.upload(
                "/settings/import", fileName: "contacts.vcf", contents: Self.phoneExport)
            XCTAssertEqual(imported.status, .ok, "\(database): \(imported.text)")
            XCTAssertTrue(
                imported.text.contains(
                    "Imported 2 contacts with 2 addresses and 3 e-mails, phone numbers or accounts; 4 left out."),
                imported.text)
            XCTAssertTrue(
                imported.text.contains(
                    "Card 1 (Jan Łukasiewicz): “\(String(repeating: "1", count: 40))” left out: Value must be at most "
                        + "255 characters."), "one field refused, the card's others made")
            XCTAssertTrue(
                imported.text.contains(
                    "Card 1 (Jan Łukasiewicz): “https://example.pl/jan” left out: no kind of contact field has its "
                        + "protocol."), imported.text)
            XCTAssertTrue(imported.text.contains("<li>Jan Łukasiewicz</li>"))
            XCTAssertTrue(
                imported.text.contains("Card 2: the card has no name (FN or N), so there is nobody to add."),
                imported.text)
            XCTAssertTrue(
                imported.text.contains(
                    "Card 3 (Grace Hopper): address 1 left out: ZIP codes in the United States look like 95014."),
                imported.text)

            let account = try await app.account(email: "grace@example.com")
            let user = try await unwrapAsync(try await app.storedUser(account.id)).user
            let service = ContactService(database: app.db, owner: user, dependencies: app.dependencies)
            let contacts = try await service.aggregates(try await service.all())
            let jan = try XCTUnwrap(contacts.first { $0.contact.fields.firstName == "Jan" })
            XCTAssertEqual(jan.contact.fields.lastName, "Łukasiewicz")
            let contactFields = ContactFieldService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies)
            let kinds = Dictionary(uniqueKeysWithValues: try await contactFields.types().map { ($0.id, $0.name) })
            let janFields = try await contactFields.fields(ofContacts: [jan.contact.id])
            XCTAssertEqual(
                janFields.map { [kinds[$0.typeID] ?? "?", $0.data] + $0.labels.map(\.label.label) },
                [["Email", "jan@example.pl", "Home"], ["Phone", "+48 22 123-45-67", "Mobile"], ["LinkedIn", "janl"]])
            let byPhone = try await service.page(
                matching: "48221234567", order: .listing, page: PageSelection(page: 1, limit: 10))
            XCTAssertEqual(byPhone.0.map(\.id), [jan.contact.id], "\(database): found by the phone's digits")

            XCTAssertEqual(jan.contact.fields.birthdate, Birthdate(day: 21, month: 12, year: 1878))
            XCTAssertEqual(jan.contact.fields.description, "Logician. This note is folded across two lines.")
            XCTAssertEqual(jan.addresses.first?.address.countryCode, "PL")
            XCTAssertEqual(jan.addresses.first?.address.label, "Home")
            XCTAssertEqual(jan.addresses.first?.geocode.status, .pending, "imported addresses are looked up too")
            let grace = try XCTUnwrap(contacts.first { $0.contact.fields.firstName == "Grace" })
            XCTAssertEqual(grace.addresses.map(\.address.city), ["New York"])

            let again = try await browser.upload(
                "/settings/import", fileName: "contacts.vcf", contents: Self.phoneExport)
            XCTAssertTrue(again.text.contains("Card 1 (Jan Łukasiewicz): already in your contacts (same e-mail)."))
            let count = try await app.count(ContactsTable.self)
            XCTAssertEqual(count, 3, "Grace has no e-mail, so she comes in again; Jan does not")

            let empty = try await browser.upload("/settings/import", fileName: "empty.vcf", contents: "")
            XCTAssertEqual(empty.status, .unprocessableEntity)
            XCTAssertTrue(empty.text.contains("Choose a vCard file to import."))
        }
    }

    func testAnExportComesBackWhole() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(
                for: account,
                ContactDraft(
                    firstName: "Ada", lastName: "Lovelace", nickname: "Enchantress",
                    description: "Wrote the first program.",
                    email: "ada@example.com", isBirthdateKnown: true, birthdateDay: 10, birthdateMonth: 12,
                    birthdateYear: 1815))
            let addresses = AddressService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies, geocoderEnabled: false,
                jobsQueued: {})
            _ = try await addresses.create(
                contactID: ada.id,
                PostalAddressDraft(
                    label: "Home", street: "12 St James's Square", city: "London", postalCode: "SW1Y 4LB",
                    country: "GB",
                    latitude: 51.5074, longitude: -0.1345), coordinatesSent: true)

            let contactFields = ContactFieldService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies)
            let kinds = try await contactFields.types()
            let phoneKind = try XCTUnwrap(kinds.first(where: \.isPhone))
            _ = try await contactFields.create(
                .init(contactID: ada.id, typeID: phoneKind.id, data: "+44 20 7946 0000", labels: ["work", "Desk"]))
            let user = try await unwrapAsync(try await app.storedUser(account.id)).user
            _ = try await ContactService(database: app.db, owner: user, dependencies: app.dependencies)
                .update(ada.id) { draft in
                    var archived = draft
                    archived.isArchived = true
                    return archived
                }

            let browser = WebClient(app: app)
            _ = try await browser.register(email: "other@example.com")
            let exported = try await LocifyApp.exportContacts(in: app, email: account.email)
            XCTAssertEqual(
                exported.components(separatedBy: "BEGIN:VCARD").count - 1, 1, "\(database): archived included")

            let other = try await app.account(email: "other@example.com")
            let lines = try await LocifyApp.importContacts(in: app, email: other.email, vCardText: exported)
            XCTAssertEqual(lines, ["Imported 1 contact with 1 address and 2 e-mails, phone numbers or accounts."])
            let web = try await browser.get("/settings/export")
            XCTAssertEqual(web.headers.first(name: .contentDisposition), "attachment; filename=\"locify-contacts.vcf\"")
            let (cards, issues) = VCardFormat.read(web.text)
            XCTAssertEqual(issues, [])
            let card = try XCTUnwrap(cards.first)
            XCTAssertEqual(card.formattedName, "Ada Lovelace")
            XCTAssertEqual(card.nickname, "Enchantress")
            XCTAssertEqual(card.note, "Wrote the first program.")
            XCTAssertEqual(card.birthday, Birthdate(day: 10, month: 12, year: 1815))
            XCTAssertEqual(card.addresses.first?.coordinate, Coordinate(latitude: 51.5074, longitude: -0.1345))
            XCTAssertEqual(card.addresses.first?.country, "United Kingdom")
            XCTAssertEqual(card.addresses.first?.types, ["home"])
            XCTAssertEqual(card.emails, [.init("ada@example.com")])
            XCTAssertEqual(card.telephones, [.init("+44 20 7946 0000", types: ["work", "Desk"])])
            let single = try await browser.get("/contacts/\(ada.id)/vcard")
            XCTAssertEqual(single.status, .notFound, "another account's contact")
        }
    }
}
