import XCTest

@testable import LocifyCore

final class ContactFieldRulesTests: XCTestCase {
    /// Monica's seven kinds, ids 1 to 7 in their order, and a Skype kind without a protocol.
    static let kinds: [ContactFieldType] =
        ContactFieldType.defaults.enumerated().map { index, kind in
            ContactFieldType(
                id: index + 1, uuid: UUID(), ownerID: 1, name: kind.name, icon: kind.icon,
                linkProtocol: kind.linkProtocol, isDelible: kind.isDelible, type: kind.type,
                createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        } + [
            ContactFieldType(
                id: 8, uuid: UUID(), ownerID: 1, name: "Skype", icon: nil, linkProtocol: nil, isDelible: true,
                type: nil,
                createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        ]
    var email: ContactFieldType { Self.kinds[0] }
    var phone: ContactFieldType { Self.kinds[1] }
    var facebook: ContactFieldType { Self.kinds[2] }
    var whatsapp: ContactFieldType { Self.kinds[4] }
    var skype: ContactFieldType { Self.kinds[7] }

    func testAPhoneNumberIsSearchedByItsDigitsWhateverTheSpacing() {
        XCTAssertEqual(ContactSearch.phoneDigits("+44 (0)20 7946-0000"), "4402079460000")
        XCTAssertEqual(ContactSearch.phoneDigits("020/79.46"), "0207946")
        XCTAssertNil(ContactSearch.phoneDigits("12"), "two digits are too few to be a number")
        XCTAssertNil(ContactSearch.phoneDigits("Flat 12b"), "letters make it text")
        XCTAssertNil(ContactSearch.phoneDigits("١٢٣٤"), "only ASCII digits are dialled")
        XCTAssertEqual(ContactSearch.terms(of: "020 7946 0000"), ["02079460000"])
        XCTAssertEqual(ContactSearch.terms(of: "  Zoë  MÜLLER "), ["zoe", "muller"])
        XCTAssertEqual(ContactSearch.terms(of: nil), [])
        let key = ContactFields(firstName: "Ada").searchKey(fieldData: ["+44 20 7946 0000"])
        for query in ["20 7946", "2079460000", "+44 20-7946-0000", "(20) 7946 00 00"] {
            XCTAssertTrue(
                ContactSearch.terms(of: query)?.allSatisfy { key.contains($0) } ?? false, "“\(query)” finds the number")
        }
        XCTAssertFalse(ContactSearch.terms(of: "7946 1111")?.allSatisfy { key.contains($0) } ?? true)
        XCTAssertNil(ContactSearch.terms(of: "ada\u{0}"), "no stored text holds NUL")
    }

    func testEMailAndPhoneStayWithTheirKinds() throws {
        XCTAssertThrowsError(
            try ContactFieldType.validated(
                name: "Work mail", icon: nil, linkProtocol: nil, type: "EMAIL", storedType: nil)
        ) { error in XCTAssertEqual((error as? ValidationFailure)?.errors.map(\.field), ["type"]) }
        XCTAssertThrowsError(
            try ContactFieldType.validated(
                name: "Phone", icon: nil, linkProtocol: "tel:", type: nil, storedType: "phone"))
        XCTAssertEqual(
            try ContactFieldType.validated(
                name: "Mobile", icon: nil, linkProtocol: "tel:", type: "phone", storedType: "phone"
            )
            .type, "phone")
        XCTAssertEqual(
            try ContactFieldType.validated(name: "Skype", icon: nil, linkProtocol: nil, type: "chat", storedType: nil)
                .type,
            "chat")
    }

    func testLinksAreMadeFromTheProtocolAndNeverRunScript() {
        XCTAssertEqual(phone.link(for: "+44 20 7946 0000"), "tel:+442079460000", "tel: URIs hold no spaces")
        XCTAssertEqual(email.link(for: "ada@example.com"), "mailto:ada@example.com")
        XCTAssertEqual(whatsapp.link(for: "4420794600"), "https://wa.me/4420794600")
        XCTAssertEqual(
            facebook.link(for: "https://www.facebook.com/ada"), "https://www.facebook.com/ada", "a full URL is kept")
        XCTAssertNil(skype.link(for: "ada.l"), "no protocol, no link")
        var script = skype
        script.linkProtocol = "javascript:"
        XCTAssertNil(script.link(for: "alert(1)"))
        script.linkProtocol = "https://example.com/"
        XCTAssertNil(script.link(for: "javascript:alert(1)").flatMap { $0.hasPrefix("javascript") ? $0 : nil })
    }

    func testAContactsFieldsTravelInAVCardAndComeBack() throws {
        let contact = Contact(
            id: 1, uuid: UUID(), ownerID: 1, fields: ContactFields(firstName: "Ada"), defaultAvatarColor: "#000",
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        func field(_ id: Int, _ kind: ContactFieldType, _ data: String, labels: [String] = []) -> ContactField {
            ContactField(
                id: id, uuid: UUID(), ownerID: 1, contactID: 1, typeID: kind.id, data: data,
                labels: labels.enumerated().compactMap { index, text in
                    ContactFieldLabel(text).map {
                        ContactField.StoredLabel(id: index, label: $0, createdAt: Date(timeIntervalSince1970: 0))
                    }
                }, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        }
        let fields = [
            field(1, email, "ada@example.com", labels: ["work"]),
            field(2, phone, "+44 20 7946 0000", labels: ["CELL", "Desk"]),
            field(3, facebook, "ada.lovelace"),
            field(4, Self.kinds[5], "adal"),
            field(5, skype, "ada.l"),
        ]
        let card = VCard(ContactAggregate(contact: contact, addresses: []), contactFields: fields, kinds: Self.kinds)
        XCTAssertEqual(card.emails, [.init("ada@example.com", types: ["work"])])
        XCTAssertEqual(card.telephones, [.init("+44 20 7946 0000", types: ["cell", "Desk"])])
        XCTAssertEqual(card.urls, [.init("https://facebook.com/ada.lovelace")])
        XCTAssertEqual(card.messaging, [.init("telegram:adal"), .init("skype:ada.l")])

        let (read, issues) = VCardFormat.read(VCardFormat.write(card))
        XCTAssertEqual(issues, [])
        let (drafts, leftOut) = try XCTUnwrap(read.first).contactFieldDrafts(kinds: Self.kinds)
        XCTAssertEqual(
            drafts,
            [
                ContactFieldDraft(typeID: 1, data: "ada@example.com", labels: ["work"]),
                ContactFieldDraft(typeID: 2, data: "+44 20 7946 0000", labels: ["cell", "Desk"]),
                ContactFieldDraft(typeID: 3, data: "ada.lovelace"),
                ContactFieldDraft(typeID: 6, data: "adal"),
                ContactFieldDraft(typeID: 8, data: "ada.l"),
            ])
        XCTAssertEqual(leftOut, [])
    }

    func testPhonesWriteTheirCardsAsTheyDo() throws {
        // As Google Contacts and an iPhone write them: vCard 3 types, a tel: URI, bare vCard 2.1 types,
        // profile links with www., and a link no kind knows.
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Grace Hopper
            EMAIL;TYPE=INTERNET;TYPE=HOME:grace@example.com
            TEL;TYPE=CELL,VOICE,pref:+1 555 0100
            item1.TEL;VALUE=uri:tel:+1-555-0101
            TEL;WORK;FAX:+1 555 0102
            URL:http://www.twitter.com/gracehopper
            URL;TYPE=work:https://navy.example/grace
            IMPP:xmpp:grace@jabber.example
            END:VCARD
            """
        let card = try XCTUnwrap(VCardFormat.read(text).cards.first)
        let (drafts, leftOut) = card.contactFieldDrafts(kinds: Self.kinds)
        XCTAssertEqual(
            drafts,
            [
                ContactFieldDraft(typeID: 1, data: "grace@example.com", labels: ["home"]),
                ContactFieldDraft(typeID: 2, data: "+1 555 0100", labels: ["cell"]),
                ContactFieldDraft(typeID: 2, data: "+1-555-0101", labels: []),
                ContactFieldDraft(typeID: 2, data: "+1 555 0102", labels: ["work", "fax"]),
                ContactFieldDraft(typeID: 4, data: "gracehopper"),
            ])
        XCTAssertEqual(leftOut, ["https://navy.example/grace", "xmpp:grace@jabber.example"])
    }
}
