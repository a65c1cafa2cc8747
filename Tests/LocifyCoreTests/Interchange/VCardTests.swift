import XCTest

@testable import LocifyCore

final class VCardTests: XCTestCase {
    let card = VCard(
        uid: "urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1", formattedName: "Zoë Müller-Smith", givenName: "Zoë",
        familyName: "Müller-Smith", nickname: "Zo",
        emails: [.init("zoe@example.com", types: ["home"]), .init("z.m@work.example", types: ["work", "pref"])],
        telephones: [.init("+41 44 668 18 00", types: ["cell"]), .init("(044) 123-4567", types: ["My desk"])],
        messaging: [.init("telegram:zoems")], urls: [.init("https://facebook.com/zoe.ms")],
        birthday: Birthdate(day: 29, month: 2, year: 1992),
        addresses: [
            VCard.Address(
                types: ["home"], street: "Bahnhofstrasse 1; Flat 2", city: "Zürich", postalCode: "8001",
                country: "Switzerland",
                label: "Bahnhofstrasse 1\nCH-8001 Zürich",
                coordinate: Coordinate(latitude: 47.376887, longitude: 8.541694)),
            VCard.Address(types: ["work"], city: "Bern", country: "CH"),
        ],
        photoURI: "https://locify.example/avatars/1.png?sig=a,b", note: "Likes tea, hates coffee.\nSecond line")

    func testWriteThenReadGivesTheSameCard() {
        let text = VCardFormat.write(card)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
        XCTAssertTrue(text.contains("N:Müller-Smith;Zoë;;;\r\n"))
        XCTAssertTrue(text.contains("EMAIL;TYPE=work,pref:z.m@work.example\r\n"))
        XCTAssertTrue(text.contains("TEL;TYPE=cell:+41 44 668 18 00\r\n"))
        XCTAssertTrue(text.contains("TEL;TYPE=\"My desk\":(044) 123-4567\r\n"), "a label with a space is quoted")
        XCTAssertTrue(text.contains("IMPP:telegram:zoems\r\n"))
        XCTAssertTrue(text.contains("BDAY:19920229\r\n"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertTrue(
            unfolded.contains(
                "ADR;TYPE=home;LABEL=\"Bahnhofstrasse 1\\nCH-8001 Zürich\";GEO=\"geo:47.376887,8.541694\":;;Bahnhofstrasse 1\\; Flat 2;Zürich;;8001;Switzerland"
            ))
        XCTAssertTrue(unfolded.contains("NOTE:Likes tea\\, hates coffee.\\nSecond line"))
        for line in text.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75) }
        let (cards, issues) = VCardFormat.read(
            text + VCardFormat.write(VCard(formattedName: "Yearless", birthday: Birthdate(day: 3, month: 4))))
        XCTAssertEqual(issues, [])
        XCTAssertEqual(cards.first, card)
        XCTAssertEqual(cards.last?.birthday, Birthdate(day: 3, month: 4))
        XCTAssertTrue(VCardFormat.write(cards[1]).contains("BDAY:--0403"))
    }

    func testReadsVCard3AndReportsNamelessCards() {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            N:Doe;John;;;
            item1.EMAIL;type=INTERNET:john@example.com
            BDAY:1980-07-04
            GEO:40.7;-74.0
            ADR;TYPE=WORK,pref:;;1 Main St;Springfield;IL;62704;USA
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            EMAIL:nobody@example.com
            END:VCARD
            """
        let (cards, issues) = VCardFormat.read(text)
        XCTAssertEqual(cards.count, 1)
        XCTAssertEqual(cards.first?.formattedName, "John Doe")
        XCTAssertEqual(cards.first?.emails, [.init("john@example.com", types: ["INTERNET"])])
        XCTAssertEqual(cards.first?.birthday, Birthdate(day: 4, month: 7, year: 1980))
        XCTAssertEqual(cards.first?.addresses.first?.types, ["work", "pref"])
        XCTAssertEqual(cards.first?.addresses.first?.region, "IL")
        XCTAssertEqual(issues, [InterchangeIssue(record: 2, reason: "no FN or N name")])
        XCTAssertEqual(VCardFormat.parseGeo("geo:91,0"), nil)
    }
}

final class MailMessageTests: XCTestCase {
    func testHeadersAreEncodedAndCannotBeInjected() {
        let message = MailMessage(
            from: "Locify <locify@example.org>", to: ["ada@example.com", "grace@example.com"],
            subject: "Geburtstag: Jürgen\r\nBcc: everyone@example.com", body: "Line one\r\nLine two",
            date: Date(timeIntervalSince1970: 1_714_817_165), messageID: "42@example.org")
        XCTAssertEqual(
            message.rfc5322Text,
            """
            From: Locify <locify@example.org>
            To: ada@example.com, grace@example.com
            Subject: =?UTF-8?B?\(Data("Geburtstag: JürgenBcc: everyone@example.com".utf8).base64EncodedString())?=
            Date: Sat, 4 May 2024 10:06:05 +0000
            Message-ID: <42@example.org>
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: 8bit

            Line one
            Line two

            """)
    }

    func testAnASCIISubjectIsWrittenAsItIs() {
        let message = MailMessage(
            from: "a@example.org", to: ["b@example.org"], subject: "Call Ada", body: "Today.\n",
            date: Date(timeIntervalSince1970: 0),
            messageID: "1@example.org")
        XCTAssertTrue(message.rfc5322Text.contains("\nSubject: Call Ada\n"))
        XCTAssertTrue(message.rfc5322Text.contains("\nDate: Thu, 1 Jan 1970 00:00:00 +0000\n"))
        XCTAssertTrue(message.rfc5322Text.hasSuffix("\n\nToday.\n"))
    }
}
