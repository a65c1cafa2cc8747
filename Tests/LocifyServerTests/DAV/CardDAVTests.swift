import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// CardDAV as phones' Contacts apps use it: discovery from the server's address, Basic sign-in with an
/// app password, the address book's cards, and `sync-collection` telling each change (an address, a
/// tag's name, a deletion) by the account's revision; bad input refused with DAV's errors.
final class CardDAVTests: XCTestCase {
    private static let book = "/dav/addressbooks/contacts/"

    private static func propfind(_ properties: String) -> String {
        #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:cs="http://calendarserver.org/ns/"><d:prop>\#(properties)</d:prop></d:propfind>"#
    }

    private static func sync(_ token: String, limit: Int? = nil, data: Bool = false) -> String {
        let limitElement = limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? ""
        return
            #"<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:sync-token>\#(token)</d:sync-token><d:sync-level>1</d:sync-level>\#(limitElement)<d:prop><d:getetag/>\#(data ? "<card:address-data/>" : "")</d:prop></d:sync-collection>"#
    }

    /// The id of the item named `name` in the list the API answers at `path`.
    private func id(of name: String, in path: String, _ app: Application, _ account: TestAccount) async throws -> Int {
        let list = try await app.send(.GET, path, headers: account.bearer)
        let items = try XCTUnwrap(try list.json()["data"] as? [[String: Any]], list.text)
        return try XCTUnwrap(items.first { $0["name"] as? String == name }?["id"] as? Int, list.text)
    }

    private func uuid(of contactID: Int, _ app: Application, _ account: TestAccount) async throws -> String {
        let contact = try await app.send(.GET, "/api/contacts/\(contactID)", headers: account.bearer)
        let data = try XCTUnwrap(try contact.json()["data"] as? [String: Any])
        return try XCTUnwrap(data["uuid"] as? String)
    }

    func testAClientGivenTheServersAddressFindsTheAddressBook() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            for wellKnown in ["/.well-known/carddav", "/.well-known/caldav"] {
                let found = try await app.send(.PROPFIND, wellKnown, headers: [:], body: nil)
                XCTAssertEqual(found.status, .movedPermanently, "\(database)")
                XCTAssertEqual(found.headers.first(name: .location), "/dav/")
            }
            let options = try await app.send(.OPTIONS, "/dav/addressbooks/contacts/", headers: [:], body: nil)
            XCTAssertEqual(options.status, .ok)
            XCTAssertEqual(options.headers.first(name: "DAV"), "1, 3, addressbook, calendar-access")

            // Without credentials, or with wrong ones, the challenge that makes a client ask for them.
            let anonymous = try await app.send(.PROPFIND, "/dav/", headers: ["Depth": "0"], body: nil)
            XCTAssertEqual(anonymous.status, .unauthorized)
            XCTAssertEqual(anonymous.headers.first(name: .wwwAuthenticate), #"Basic realm="Locify", charset="UTF-8""#)
            let wrong = try await app.send(.PROPFIND, "/dav/", headers: basic(account, password: "guess"), body: nil)
            XCTAssertEqual(wrong.status, .unauthorized, "\(database)")
            // Another account's e-mail with this token is no sign-in either.
            let grace = try await app.makeAccount(email: "grace@example.com", name: "Grace Hopper")
            let mixed = TestAccount(id: grace.id, email: grace.email, password: grace.password, token: account.token)
            let crossed = try await app.send(.PROPFIND, "/dav/", headers: basic(mixed), body: nil)
            XCTAssertEqual(crossed.status, .unauthorized, "\(database)")

            // The root names the principal, the principal the address book home, the home the address book.
            let root = try await dav(
                app, .PROPFIND, "/dav/", account, depth: "0", body: Self.propfind("<d:current-user-principal/>"))
            XCTAssertEqual(root.status, .multiStatus, root.text)
            XCTAssertTrue(root.text.contains("<d:current-user-principal><d:href>/dav/principal/</d:href>"), root.text)
            let principal = try await dav(
                app, .PROPFIND, "/dav/principal/", account, depth: "0",
                body: Self.propfind("<card:addressbook-home-set/><d:displayname/><d:quota-used-bytes/>"))
            XCTAssertTrue(
                principal.text.contains("<card:addressbook-home-set><d:href>/dav/addressbooks/</d:href>"),
                principal.text)
            XCTAssertTrue(principal.text.contains("<d:displayname>Ada Lovelace</d:displayname>"), principal.text)
            // A property asked for and not kept is answered 404 in its own propstat.
            XCTAssertTrue(
                principal.text.contains(
                    "<d:propstat><d:prop><d:quota-used-bytes/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status>"),
                principal.text)
            let home = try await dav(
                app, .PROPFIND, "/dav/addressbooks/", account, depth: "1",
                body: Self.propfind(
                    "<d:resourcetype/><d:sync-token/><cs:getctag/><d:current-user-privilege-set/><card:max-resource-size/>"
                ))
            XCTAssertEqual(members(home.text).map(\.href), ["/dav/addressbooks/", Self.book], home.text)
            XCTAssertTrue(
                home.text.contains("<d:resourcetype><d:collection/><card:addressbook/></d:resourcetype>"), home.text)
            XCTAssertTrue(home.text.contains("<d:sync-token>urn:locify:sync:"), home.text)
            // The most a card may be: what every route reads of a body.
            XCTAssertTrue(home.text.contains("<card:max-resource-size>1048576</card:max-resource-size>"), home.text)
            // The client may write cards.
            XCTAssertTrue(home.text.contains("<d:privilege><d:write/></d:privilege>"), home.text)
        }
    }

    func testSettingsSayWhatAContactsAppAsksFor() async throws {
        try await withApp(.sqlite) { app, _ in
            let browser = WebClient(app: app)
            browser.extraHeaders.replaceOrAdd(name: .host, value: "locify.example.org")
            _ = try await browser.register()
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains("Your contacts in your phone's Contacts app"), settings.text)
            XCTAssertTrue(settings.text.contains("Add a CalDAV account the same way"), settings.text)
            XCTAssertTrue(settings.text.contains(#"value="http://locify.example.org/""#), settings.text)
            XCTAssertTrue(settings.text.contains(#"id="contacts-app-user""#), settings.text)
            XCTAssertTrue(settings.text.contains(#"value="grace@example.com""#), settings.text)
        }
    }

    func testTheContactsPictureTravelsInTheCardBothWays() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let card = Self.book + ada.uuid.lowercasedText + ".vcf"
            let plain = try await app.send(.GET, card, headers: basic(account), body: nil)
            XCTAssertFalse(plain.text.contains("PHOTO"), "initials are no picture: \(plain.text)")
            let picture = TestImages.png(width: 64, height: 64, seed: 1)
            let photo = try await app.uploadPhoto(picture, contactID: ada.id, account: account)
                .decoded(DataEnvelope<PhotoResource>.self).data
            let chosen = try await app.send(
                .PUT, "/api/contacts/\(ada.id)/avatar", headers: account.bearer,
                json: #"{"source": "photo", "photo_id": \#(photo.id)}"#)
            XCTAssertEqual(chosen.status, .ok, chosen.text)

            // The avatar's picture is in the card, in 4.0 as a data URL and in 3.0 as inline bytes.
            let shown = try await app.send(.GET, card, headers: basic(account), body: nil)
            let base64 = Data(picture).base64EncodedString()
            XCTAssertTrue(
                ContentLines.unfold(shown.text).contains("PHOTO:data:image/png;base64," + base64),
                "\(database): \(shown.text)")
            XCTAssertNotEqual(
                shown.headers.first(name: .eTag), plain.headers.first(name: .eTag), "a new picture, a new card")
            let three = try await app.send(
                .GET, card, headers: basic(account).adding("Accept", "text/vcard; version=3.0"), body: nil)
            XCTAssertTrue(ContentLines.unfold(three.text).contains("PHOTO;ENCODING=b;TYPE=PNG:" + base64), three.text)
            XCTAssertEqual(three.headers.first(name: .eTag), shown.headers.first(name: .eTag))
            // A listing tells the ETag without reading the picture, and the same one.
            let listed = try await dav(
                app, .PROPFIND, card, account, depth: "0",
                body: #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>"#)
            XCTAssertEqual(members(listed.text).first?.etag, shown.headers.first(name: .eTag), listed.text)

            // A new picture from the phone (3.0, inline) becomes the contact's avatar, once.
            let phonePicture = TestImages.png(width: 32, height: 32, seed: 7)
            let fromPhone = three.text.replacingOccurrences(
                of: base64, with: Data(phonePicture).base64EncodedString())
            var headers = basic(account)
            headers.add(name: .ifMatch, value: try XCTUnwrap(shown.headers.first(name: .eTag)))
            let put = try await app.send(.PUT, card, headers: headers, body: ByteBuffer(string: fromPhone))
            XCTAssertEqual(put.status, .noContent, put.text)
            let contact = try await app.send(.GET, "/api/contacts/\(ada.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data
            XCTAssertEqual(contact.information.avatar.source, "photo")
            let after = try await app.send(.GET, card, headers: basic(account), body: nil)
            let lines = ContentLines.unfold(after.text)
            XCTAssertEqual(
                lines.filter { $0.hasPrefix("PHOTO") },
                ["PHOTO:data:image/png;base64," + Data(phonePicture).base64EncodedString()], after.text)
            var again = basic(account)
            again.add(name: .ifMatch, value: try XCTUnwrap(after.headers.first(name: .eTag)))
            let same = try await app.send(.PUT, card, headers: again, body: ByteBuffer(string: after.text))
            XCTAssertEqual(same.status, .noContent, same.text)
            let photos = try await app.send(.GET, "/api/photos?contact_id=\(ada.id)", headers: account.bearer)
            XCTAssertEqual(
                try photos.decoded(PageResource<PhotoResource>.self).data.count, 2,
                "the same picture is not stored twice")
            let unchanged = try await app.send(.GET, card, headers: basic(account), body: nil)
            XCTAssertEqual(unchanged.headers.first(name: .eTag), after.headers.first(name: .eTag))
            // The phone's picture deleted in Locify leaves the card: the card kept is not the picture's keeper.
            let phonePhoto = try XCTUnwrap(
                try photos.decoded(PageResource<PhotoResource>.self).data.first { $0.id != photo.id })
            let removed = try await app.send(.DELETE, "/api/photos/\(phonePhoto.id)", headers: account.bearer)
            XCTAssertEqual(removed.status, .ok, removed.text)
            let bare = try await app.send(.GET, card, headers: basic(account), body: nil)
            XCTAssertFalse(bare.text.contains("PHOTO"), bare.text)

            // A picture Locify cannot keep (a link) stays in the card as the phone wrote it.
            let grace = try await app.makeContact(for: account, ContactDraft(firstName: "Grace"))
            let graceCard = Self.book + grace.uuid.lowercasedText + ".vcf"
            let linked =
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Grace\r\nN:;Grace;;;\r\nPHOTO;VALUE=uri:https://example.org/grace.jpg\r\nEND:VCARD\r\n"
            let linkPut = try await app.send(.PUT, graceCard, headers: basic(account), body: ByteBuffer(string: linked))
            XCTAssertEqual(linkPut.status, .noContent, linkPut.text)
            let graceShown = try await app.send(.GET, graceCard, headers: basic(account), body: nil)
            XCTAssertTrue(graceShown.text.contains("PHOTO;VALUE=uri:https://example.org/grace.jpg"), graceShown.text)
        }
    }

    func testSignInsThatKeepFailingAreThrottled() async throws {
        try await withApp(.sqlite) { app, _ in
            let account = try await app.makeAccount()
            for _ in 0..<5 {
                let wrong = try await app.send(
                    .PROPFIND, "/dav/", headers: basic(account, password: "guess"), body: nil)
                XCTAssertEqual(wrong.status, .unauthorized)
            }
            let throttled = try await app.send(.PROPFIND, "/dav/", headers: basic(account), body: nil)
            XCTAssertEqual(throttled.status, .tooManyRequests)
            XCTAssertNotNil(throttled.headers.first(name: .retryAfter))
        }
    }

    func testCardsAndTheirChangesReachTheClientByRevision() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(
                by: account, "/api/contacts",
                #"{"first_name":"Ada","last_name":"Lovelace","nickname":"Countess"}"#)
            let work = try await app.send(
                .PUT, "/api/contacts/\(ada)/work", headers: account.bearer, json: #"{"company":"Analytical Engines"}"#)
            XCTAssertEqual(work.status, .ok, work.text)
            let grace = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Grace"}"#)
            let adaUUID = try await uuid(of: ada, app, account)
            let graceUUID = try await uuid(of: grace, app, account)
            let adaCard = Self.book + adaUUID + ".vcf"
            let graceCard = Self.book + graceUUID + ".vcf"
            let address = try await app.createdID(
                by: account, "/api/contacts/\(ada)/addresses",
                #"{"name":"Home","street":"12 St James's Square","city":"London","postal_code":"SW1Y 4JH","country":"GB"}"#
            )
            let woman = try await id(of: "Woman", in: "/api/genders", app, account)
            let born = try await app.send(
                .PUT, "/api/contacts/\(ada)", headers: account.bearer,
                json: #"{"gender_id":\#(woman),"is_birthdate_known":true,"birthdate_day":10,"birthdate_month":12}"#)
            XCTAssertEqual(born.status, .ok, born.text)
            let tagged = try await app.send(
                .POST, "/api/contacts/\(ada)/setTags", headers: account.bearer, json: #"{"tags":["Friends"]}"#)
            XCTAssertEqual(tagged.status, .ok, tagged.text)

            // The address book lists both cards; a card is the vCard the export writes, with its ETag.
            let listed = try await dav(
                app, .PROPFIND, Self.book, account, depth: "1", body: Self.propfind("<d:getetag/><d:getcontenttype/>"))
            let cards = members(listed.text).filter { $0.href != Self.book }
            XCTAssertEqual(Set(cards.map(\.href)), [adaCard, graceCard], "\(database): \(listed.text)")
            let card = try await app.send(.GET, adaCard, headers: basic(account), body: nil)
            XCTAssertEqual(card.status, .ok)
            XCTAssertEqual(card.headers.first(name: .contentType), "text/vcard; charset=utf-8")
            XCTAssertEqual(card.headers.first(name: .eTag), cards.first { $0.href == adaCard }?.etag)
            for line in [
                "UID:urn:uuid:\(adaUUID)", "FN:Ada Lovelace", "N:Lovelace;Ada;;;", "NICKNAME:Countess",
                "ORG:Analytical Engines", "CATEGORIES:Friends",
            ] {
                XCTAssertTrue(card.text.contains(line + "\r\n"), "\(line) in \(card.text)")
            }
            XCTAssertTrue(card.text.contains("ADR;TYPE=home"), card.text)
            XCTAssertTrue(card.text.contains("GENDER:F;Woman\r\n") && card.text.contains("BDAY:--1210\r\n"), card.text)
            // vCard 3.0 for the apps that read nothing newer, asked for by the media type's version or by
            // the report's address-data: the same card, with the same ETag.
            let three = try await app.send(
                .GET, adaCard, headers: basic(account).adding("Accept", "text/vcard; version=3.0"), body: nil)
            XCTAssertTrue(three.text.contains("VERSION:3.0\r\n"), three.text)
            XCTAssertTrue(three.text.contains("BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-10\r\n"), three.text)
            XCTAssertFalse(three.text.contains("GENDER") || three.text.contains("LABEL="), three.text)
            XCTAssertEqual(three.headers.first(name: .eTag), card.headers.first(name: .eTag))
            let multigetThree = try await dav(
                app, .REPORT, Self.book, account,
                body:
                    #"<?xml version="1.0"?><card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data content-type="text/vcard" version="3.0"/></d:prop><d:href>\#(adaCard)</d:href></card:addressbook-multiget>"#
            )
            XCTAssertTrue(multigetThree.text.contains("VERSION:3.0"), multigetThree.text)
            let unknownVersion = try await dav(
                app, .REPORT, Self.book, account,
                body:
                    #"<?xml version="1.0"?><card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><card:address-data version="2.1"/></d:prop><d:href>\#(adaCard)</d:href></card:addressbook-multiget>"#
            )
            XCTAssertEqual(unknownVersion.status, .forbidden)
            XCTAssertTrue(unknownVersion.text.contains("<card:supported-address-data/>"), unknownVersion.text)
            let unchanged = try await app.send(
                .GET, adaCard, headers: basic(account).adding("If-None-Match", card.headers.first(name: .eTag) ?? ""),
                body: nil)
            XCTAssertEqual(unchanged.status, .notModified)

            // A first sync gets everything and a token; the next, with nothing changed, nothing.
            let first = try await dav(app, .REPORT, Self.book, account, body: Self.sync(""))
            XCTAssertEqual(first.status, .multiStatus, first.text)
            XCTAssertEqual(Set(members(first.text).map(\.href)), [adaCard, graceCard])
            let start = token(in: first.text)
            let quiet = try await dav(app, .REPORT, Self.book, account, body: Self.sync(start))
            XCTAssertEqual(members(quiet.text), [], "\(database): \(quiet.text)")
            XCTAssertEqual(token(in: quiet.text), start)

            // Each change a card shows makes its card change, told by the next sync.
            var seen = start
            var etag = card.headers.first(name: .eTag)
            func expectChanged(_ what: String, line: UInt = #line) async throws {
                let answer = try await dav(app, .REPORT, Self.book, account, body: Self.sync(seen))
                let found = members(answer.text)
                XCTAssertEqual(found.map(\.href), [adaCard], "\(database): \(what)", line: line)
                XCTAssertNotEqual(found.first?.etag, etag, "\(database): \(what)", line: line)
                XCTAssertNotEqual(token(in: answer.text), seen, line: line)
                (seen, etag) = (token(in: answer.text), found.first?.etag)
            }
            _ = try await app.send(
                .PUT, "/api/addresses/\(address)", headers: account.bearer,
                json:
                    #"{"contact_id":\#(ada),"name":"Home","street":"10 St James's Square","city":"London","postal_code":"SW1Y 4JH","country":"GB"}"#
            )
            try await expectChanged("an address edited")
            let tagID = try await id(of: "Friends", in: "/api/tags", app, account)
            _ = try await app.send(.PUT, "/api/tags/\(tagID)", headers: account.bearer, json: #"{"name":"Family"}"#)
            try await expectChanged("its tag renamed")
            let removed = try await app.send(.DELETE, "/api/addresses/\(address)", headers: account.bearer)
            XCTAssertEqual(removed.status, .ok, removed.text)
            try await expectChanged("an address deleted")
            // A change elsewhere in the account moves the token and changes no card.
            _ = try await app.send(.POST, "/api/categories", headers: account.bearer, json: #"{"name":"Cafés"}"#)
            let elsewhere = try await dav(app, .REPORT, Self.book, account, body: Self.sync(seen))
            XCTAssertEqual(members(elsewhere.text), [], elsewhere.text)

            // A deleted contact is a 404 member; its card is gone.
            let deleted = try await app.send(.DELETE, "/api/contacts/\(ada)", headers: account.bearer)
            XCTAssertEqual(deleted.status, .ok, deleted.text)
            let gone = try await dav(app, .REPORT, Self.book, account, body: Self.sync(seen))
            XCTAssertEqual(
                members(gone.text), [DAVMember(href: adaCard, status: "HTTP/1.1 404 Not Found", etag: nil)],
                "\(database): \(gone.text)")
            let missing = try await app.send(.GET, adaCard, headers: basic(account), body: nil)
            XCTAssertEqual(missing.status, .notFound)

            // multiget: each card asked for, with its text; one gone answers 404.
            let multiget = try await dav(
                app, .REPORT, Self.book, account,
                body:
                    #"<?xml version="1.0"?><card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop><d:href>\#(graceCard)</d:href><d:href>\#(adaCard)</d:href></card:addressbook-multiget>"#
            )
            XCTAssertEqual(members(multiget.text).map(\.href), [graceCard, adaCard])
            XCTAssertEqual(members(multiget.text).map(\.status), [nil, "HTTP/1.1 404 Not Found"])
            XCTAssertTrue(multiget.text.contains("<card:address-data>BEGIN:VCARD"), multiget.text)
            XCTAssertTrue(multiget.text.contains("FN:Grace"), multiget.text)

            // A limit the changes do not fit in is refused as RFC 6578 says.
            _ = try await app.send(
                .PUT, "/api/contacts/\(grace)", headers: account.bearer, json: #"{"nickname":"Amazing"}"#)
            let cut = try await dav(app, .REPORT, Self.book, account, body: Self.sync(start, limit: 1))
            XCTAssertEqual(cut.status, .insufficientStorage, cut.text)
            XCTAssertTrue(cut.text.contains("<d:number-of-matches-within-limits/>"), cut.text)
        }
    }

    func testACardAClientWritesBecomesAContactAndComesBackWithAllItHeld() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let iPhoneCard =
                [
                    "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//iPhone OS 18.0//EN",
                    "N:Lovelace;Ada;;;", "FN:Ada Lovelace", "ORG:Analytical Engines;", "TITLE:Analyst",
                    "item1.EMAIL;type=INTERNET;type=pref:ada@example.org", "item1.X-ABLabel:_$!<Other>!$_",
                    "TEL;type=CELL;type=VOICE:+44 20 7946 0000",
                    "ADR;type=HOME:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom",
                    "X-SOCIALPROFILE;type=twitter:x-apple:adalovelace", "item2.X-ABDATE:1835-07-08",
                    "item2.X-ABLabel:_$!<Anniversary>!$_", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ",
                    "CATEGORIES:Friends", "BDAY:1815-12-10", "UID:ABCD-1234", "GENDER:F", "IMPP:zzz-chat:ada",
                    "END:VCARD",
                ].joined(separator: "\r\n") + "\r\n"
            let path = Self.book + "ABCD-1234.vcf"
            var headers = basic(account)
            headers.add(name: .ifNoneMatch, value: "*")
            let made = try await app.send(.PUT, path, headers: headers, body: ByteBuffer(string: iPhoneCard))
            XCTAssertEqual(made.status, .created, "\(database): \(made.text)")
            XCTAssertNil(made.headers.first(name: .eTag), "the card served back is Locify's writing of it")
            let again = try await app.send(.PUT, path, headers: headers, body: ByteBuffer(string: iPhoneCard))
            XCTAssertEqual(again.status, .preconditionFailed)

            // The contact, through the API: names, work, birthday, e-mail, phone, address, tag.
            let list = try await app.send(.GET, "/api/contacts?limit=100", headers: account.bearer)
            let contacts = try XCTUnwrap(try list.json()["data"] as? [[String: Any]])
            XCTAssertEqual(contacts.count, 1, "\(database): made once")
            let id = try XCTUnwrap(contacts.first?["id"] as? Int)
            let contact = try await app.send(.GET, "/api/contacts/\(id)?with=contactfields", headers: account.bearer)
            for expected in ["Lovelace", "Analytical Engines", "Analyst", "Friends", "ada@example.org", "Woman"] {
                XCTAssertTrue(contact.text.contains(expected), "\(expected) in \(contact.text)")
            }
            let addresses = try await app.send(.GET, "/api/contacts/\(id)/addresses", headers: account.bearer)
            XCTAssertTrue(addresses.text.contains(#""postal_code":"SW1Y 4JH""#), addresses.text)

            // A kind of field made later that would recognise a value left out (no field holds it) does not
            // take it from the card: what was left out was decided when the card was written.
            let kind = try await app.send(
                .POST, "/api/contactfieldtypes", headers: account.bearer,
                json: #"{"name": "Zzz", "protocol": "zzz-chat:"}"#)
            XCTAssertEqual(kind.status, .created, kind.text)

            // Served back at the client's own file name: Locify's values, and all the card held that Locify
            // does not model (the photo, the social profile, the dated item and its label).
            let listed = try await dav(
                app, .PROPFIND, Self.book, account, depth: "1", body: Self.propfind("<d:getetag/>"))
            XCTAssertEqual(members(listed.text).map(\.href), [Self.book, path], listed.text)
            let served = try await app.send(.GET, path, headers: basic(account), body: nil)
            for line in [
                "UID:ABCD-1234", "FN:Ada Lovelace", "EMAIL:ada@example.org", "IMPP:zzz-chat:ada", "GENDER:F;Woman",
                "X-SOCIALPROFILE;type=twitter:x-apple:adalovelace",
                "item2.X-ABDATE:1835-07-08", "item2.X-ABLabel:_$!<Anniversary>!$_",
                "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ", "BDAY:18151210", "ORG:Analytical Engines",
            ] {
                XCTAssertTrue(served.text.contains(line + "\r\n"), "\(database): \(line) in \(served.text)")
            }
            // The e-mail once, as Locify writes it; its item's label went with the client's line.
            XCTAssertEqual(served.text.components(separatedBy: "ada@example.org").count, 2, served.text)
            XCTAssertFalse(served.text.contains("item1."), served.text)
            let etag = try XCTUnwrap(served.headers.first(name: .eTag))
            let start = token(in: (try await dav(app, .REPORT, Self.book, account, body: Self.sync(""))).text)

            // A change made in Locify meanwhile: the client's stale ETag is refused, nothing changes.
            _ = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer, json: #"{"nickname":"Countess"}"#)
            var stale = basic(account)
            stale.add(name: .ifMatch, value: etag)
            let edited = iPhoneCard.replacingOccurrences(of: "London", with: "Marylebone")
                .replacingOccurrences(of: "TEL;type=CELL;type=VOICE:+44 20 7946 0000\r\n", with: "")
            let refused = try await app.send(.PUT, path, headers: stale, body: ByteBuffer(string: edited))
            XCTAssertEqual(refused.status, .preconditionFailed, "\(database)")
            let unchanged = try await app.send(.GET, "/api/contacts/\(id)/addresses", headers: account.bearer)
            XCTAssertTrue(unchanged.text.contains("London"), unchanged.text)

            // With the ETag it read last, the client's change goes through: the address changed, the phone
            // gone, the rest as it was.
            let current = try await app.send(.GET, path, headers: basic(account), body: nil)
            var fresh = basic(account)
            fresh.add(name: .ifMatch, value: try XCTUnwrap(current.headers.first(name: .eTag)))
            let changed = try await app.send(.PUT, path, headers: fresh, body: ByteBuffer(string: edited))
            XCTAssertEqual(changed.status, .noContent, "\(database): \(changed.text)")
            let moved = try await app.send(.GET, "/api/contacts/\(id)/addresses", headers: account.bearer)
            XCTAssertTrue(moved.text.contains("Marylebone") && !moved.text.contains("London"), moved.text)
            let fields = try await app.send(.GET, "/api/contacts/\(id)/contactfields", headers: account.bearer)
            XCTAssertFalse(fields.text.contains("7946"), fields.text)
            XCTAssertTrue(fields.text.contains("ada@example.org"), fields.text)
            let synced = try await dav(app, .REPORT, Self.book, account, body: Self.sync(start))
            XCTAssertEqual(members(synced.text).map(\.href), [path], synced.text)

            // Two devices writing at once with the same ETag: one goes ahead, the other hears 412.
            let read = try await app.send(.GET, path, headers: basic(account), body: nil)
            var both = basic(account)
            both.add(name: .ifMatch, value: try XCTUnwrap(read.headers.first(name: .eTag)))
            let sent = both
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for device in 0..<3 {
                    group.addTask {
                        try await app.send(
                            .PUT, path, headers: sent,
                            body: ByteBuffer(
                                string: edited.replacingOccurrences(of: "Analyst", with: "Device \(device)"))
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(statuses.filter { $0 == .noContent }.count, 1, "\(database): \(statuses)")
            XCTAssertEqual(statuses.filter { $0 == .preconditionFailed }.count, 2, "\(database): \(statuses)")

            // Deleted by the client: gone from Locify, and a sync from before says so at its own name.
            var deleting = basic(account)
            deleting.add(name: .ifMatch, value: "\"stale\"")
            let staleDelete = try await app.send(.DELETE, path, headers: deleting, body: nil)
            XCTAssertEqual(staleDelete.status, .preconditionFailed)
            let deleted = try await app.send(.DELETE, path, headers: basic(account), body: nil)
            XCTAssertEqual(deleted.status, .noContent)
            let gone = try await app.send(.GET, "/api/contacts/\(id)", headers: account.bearer)
            XCTAssertEqual(gone.status, .notFound)
            let told = try await dav(app, .REPORT, Self.book, account, body: Self.sync(start))
            XCTAssertEqual(members(told.text), [DAVMember(href: path, status: "HTTP/1.1 404 Not Found", etag: nil)])
        }
    }

    /// The examples of RFC 6352 (8.6.4, 8.7.2) and RFC 6578 (3.8), their bodies as the RFCs write them
    /// (other prefixes, indentation), the addresses moved to Locify's address book.
    func testTheRFCsExamplesAreAnsweredAsTheRFCsSay() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            for (name, nickname) in [("vcf102.vcf", "me"), ("vcf103.vcf", "someone else")] {
                let card =
                    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(name)\r\nFN:Cyrus Daboo\r\nN:Daboo;Cyrus;;;\r\n"
                    + "NICKNAME:\(nickname)\r\nEMAIL;TYPE=INTERNET:daboo@example.com\r\nTEL:+1 555 0100\r\n"
                    + "END:VCARD\r\n"
                let made = try await app.send(
                    .PUT, Self.book + name, headers: basic(account), body: ByteBuffer(string: card))
                XCTAssertEqual(made.status, .created, made.text)
            }
            let partial = """
                  <D:prop>
                    <D:getetag/>
                    <C:address-data>
                      <C:prop name="VERSION"/>
                      <C:prop name="UID"/>
                      <C:prop name="NICKNAME"/>
                      <C:prop name="EMAIL"/>
                      <C:prop name="FN"/>
                    </C:address-data>
                  </D:prop>
                """
            // 8.6.4: a query on NICKNAME, answered with only the properties asked for.
            let query = try await dav(
                app, .REPORT, Self.book, account, depth: "1",
                body: """
                    <?xml version="1.0" encoding="utf-8" ?>
                    <C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
                    \(partial)
                      <C:filter>
                        <C:prop-filter name="NICKNAME">
                          <C:text-match collation="i;unicode-casemap" match-type="equals">me</C:text-match>
                        </C:prop-filter>
                      </C:filter>
                    </C:addressbook-query>
                    """)
            XCTAssertEqual(query.status, .multiStatus, "\(database): \(query.text)")
            XCTAssertEqual(members(query.text).map(\.href), [Self.book + "vcf102.vcf"], query.text)
            XCTAssertTrue(
                query.text.contains(
                    "<card:address-data>BEGIN:VCARD\r\nVERSION:4.0\r\nUID:vcf102.vcf\r\nFN:Cyrus Daboo\r\n"
                        + "NICKNAME:me\r\nEMAIL:daboo@example.com\r\nEND:VCARD\r\n</card:address-data>"),
                query.text)
            // 8.7.2: a multiget of a card there and one not.
            let multiget = try await dav(
                app, .REPORT, Self.book, account, depth: "1",
                body: """
                    <?xml version="1.0" encoding="utf-8" ?>
                    <C:addressbook-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
                    \(partial)
                      <D:href>\(Self.book)vcf102.vcf</D:href>
                      <D:href>\(Self.book)vcf1.vcf</D:href>
                    </C:addressbook-multiget>
                    """)
            XCTAssertEqual(
                members(multiget.text).map(\.href), [Self.book + "vcf102.vcf", Self.book + "vcf1.vcf"], multiget.text)
            XCTAssertEqual(members(multiget.text).map(\.status), [nil, "HTTP/1.1 404 Not Found"])
            XCTAssertFalse(multiget.text.contains("TEL"), "only the properties asked for: \(multiget.text)")
            // RFC 6578 3.8: the first sync (an empty token), then one from its token after a change and a
            // deletion.
            let body = { (token: String) in
                """
                <?xml version="1.0" encoding="utf-8" ?>
                <D:sync-collection xmlns:D="DAV:">
                  <D:sync-token>\(token)</D:sync-token>
                  <D:sync-level>1</D:sync-level>
                  <D:prop>
                    <D:getetag/>
                  </D:prop>
                </D:sync-collection>
                """
            }
            let initial = try await dav(app, .REPORT, Self.book, account, body: body(""))
            XCTAssertEqual(
                Set(members(initial.text).map(\.href)), [Self.book + "vcf102.vcf", Self.book + "vcf103.vcf"],
                initial.text)
            XCTAssertTrue(members(initial.text).allSatisfy { $0.etag?.hasPrefix("\"") == true }, initial.text)
            let removed = try await app.send(.DELETE, Self.book + "vcf103.vcf", headers: basic(account), body: nil)
            XCTAssertEqual(removed.status, .noContent)
            let next = try await dav(app, .REPORT, Self.book, account, body: body(token(in: initial.text)))
            XCTAssertEqual(
                members(next.text),
                [DAVMember(href: Self.book + "vcf103.vcf", status: "HTTP/1.1 404 Not Found", etag: nil)],
                next.text)
            XCTAssertNotEqual(token(in: next.text), token(in: initial.text))
        }
    }

    func testBadInputIsRefusedWithDAVsErrorsAndAnotherAccountsCardsAreNotThere() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let grace = try await app.makeAccount(email: "grace@example.com", name: "Grace Hopper")
            let theirs = try await app.createdID(by: grace, "/api/contacts", #"{"first_name":"Hidden"}"#)
            let theirCard = Self.book + (try await uuid(of: theirs, app, grace)) + ".vcf"
            let mine = try await app.createdID(
                by: account, "/api/contacts", #"{"first_name":"Mary","last_name":"Somerville"}"#)
            let email = try await id(of: "Email", in: "/api/contactfieldtypes", app, account)
            let field = try await app.send(
                .POST, "/api/contactfields", headers: account.bearer,
                json: #"{"contact_id":\#(mine),"contact_field_type_id":\#(email),"data":"mary@example.org"}"#)
            XCTAssertEqual(field.status, .created, field.text)
            _ = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Charles"}"#)

            let read = try await app.send(.GET, theirCard, headers: basic(account), body: nil)
            XCTAssertEqual(read.status, .notFound, "\(database)")
            let asked = try await dav(app, .PROPFIND, theirCard, account, depth: "0", body: nil)
            XCTAssertEqual(asked.status, .notFound)

            // addressbook-query: a text-match on EMAIL, as clients search.
            let query = try await dav(
                app, .REPORT, Self.book, account,
                body:
                    #"<?xml version="1.0"?><card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop><card:filter><card:prop-filter name="EMAIL"><card:text-match collation="i;unicode-casemap" match-type="contains">EXAMPLE.ORG</card:text-match></card:prop-filter></card:filter></card:addressbook-query>"#
            )
            XCTAssertEqual(query.status, .multiStatus, query.text)
            XCTAssertEqual(members(query.text).count, 1, "\(database): \(query.text)")
            let mary = try await uuid(of: mine, app, account)
            XCTAssertEqual(members(query.text).first?.href, Self.book + mary + ".vcf")
            // allof: every filter must match; a limit cuts the answer and says so with a 507 for the book.
            func queried(_ filters: String, test: String, limit: String = "") async throws -> [DAVMember] {
                let answer = try await dav(
                    app, .REPORT, Self.book, account,
                    body:
                        #"<?xml version="1.0"?><card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop><card:filter test="\#(test)">\#(filters)</card:filter>\#(limit)</card:addressbook-query>"#
                )
                XCTAssertEqual(answer.status, .multiStatus, answer.text)
                return members(answer.text)
            }
            let both =
                #"<card:prop-filter name="FN"><card:text-match match-type="starts-with">mary</card:text-match></card:prop-filter><card:prop-filter name="EMAIL"><card:text-match match-type="ends-with">.org</card:text-match></card:prop-filter>"#
            let bothFound = try await queried(both, test: "allof")
            XCTAssertEqual(bothFound.map(\.href), [Self.book + mary + ".vcf"])
            let either =
                #"<card:prop-filter name="FN"><card:text-match match-type="equals">Charles</card:text-match></card:prop-filter><card:prop-filter name="EMAIL"><card:text-match>nobody</card:text-match></card:prop-filter>"#
            let allOf = try await queried(either, test: "allof")
            XCTAssertEqual(allOf, [])
            let anyOf = try await queried(either, test: "anyof")
            XCTAssertEqual(anyOf.count, 1)
            let cut = try await queried("", test: "anyof", limit: "<d:limit><d:nresults>1</d:nresults></d:limit>")
            XCTAssertEqual(cut.count, 2, "\(database): one card, then the book's 507")
            XCTAssertEqual(cut.last, DAVMember(href: Self.book, status: "HTTP/1.1 507 Insufficient Storage", etag: nil))

            let malformed = try await dav(
                app, .PROPFIND, Self.book, account, depth: "0", body: #"<d:propfind xmlns:d="DAV:"><d:prop>"#)
            XCTAssertEqual(malformed.status, .badRequest)
            XCTAssertTrue(malformed.text.contains("not well-formed"), malformed.text)
            let unknownReport = try await dav(
                app, .REPORT, Self.book, account,
                body: #"<?xml version="1.0"?><cal:calendar-query xmlns:cal="urn:ietf:params:xml:ns:caldav"/>"#)
            XCTAssertEqual(unknownReport.status, .forbidden)
            XCTAssertTrue(unknownReport.text.contains("<d:supported-report/>"), unknownReport.text)
            for token in ["urn:locify:sync:999999", "yesterday", "urn:locify:sync:-1"] {
                let refused = try await dav(app, .REPORT, Self.book, account, body: Self.sync(token))
                XCTAssertEqual(refused.status, .forbidden, "\(database): \(token)")
                XCTAssertTrue(refused.text.contains("<d:valid-sync-token/>"), refused.text)
            }
            // Cards that are no card, or whose values break a rule, change nothing; nor does one over the size
            // limit; and a path outside the address book is no card.
            let before = try await app.send(.GET, "/api/contacts?limit=100", headers: account.bearer)
            for (body, reason) in [
                ("no card at all", "The body is no vCard."),
                ("BEGIN:VCARD\r\nVERSION:4.0\r\nNOTE:nameless\r\nEND:VCARD\r\n", "one vCard with a name"),
                (
                    "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nADR:;;1 Main St;Zürich;;ABC;CH\r\nEND:VCARD\r\n",
                    "Address 1:"
                ),
            ] {
                let refused = try await app.send(
                    .PUT, Self.book + "bad.vcf", headers: basic(account), body: ByteBuffer(string: body))
                XCTAssertEqual(refused.status, .badRequest, "\(database): \(refused.text)")
                XCTAssertTrue(refused.text.contains("<card:valid-address-data/>"), refused.text)
                XCTAssertTrue(refused.text.contains(reason), "\(reason) in \(refused.text)")
            }
            // A note longer than a contact's description may be breaks a rule too (a body over the routes'
            // 1 MB is refused with 413 before it is read: the browser suite sends one to a running server).
            let long =
                "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Long\r\nNOTE:" + String(repeating: "x", count: 20_000)
                + "\r\nEND:VCARD\r\n"
            let tooLong = try await app.send(
                .PUT, Self.book + "long.vcf", headers: basic(account), body: ByteBuffer(string: long))
            XCTAssertEqual(tooLong.status, .badRequest)
            XCTAssertTrue(tooLong.text.contains("<card:valid-address-data/>"), tooLong.text)
            let outside = try await app.send(
                .PUT, "/dav/addressbooks/other/x.vcf", headers: basic(account),
                body: ByteBuffer(string: "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Out\r\nEND:VCARD\r\n"))
            XCTAssertEqual(outside.status, .notFound)
            let after = try await app.send(.GET, "/api/contacts?limit=100", headers: account.bearer)
            XCTAssertEqual(
                (try after.json()["data"] as? [Any])?.count, (try before.json()["data"] as? [Any])?.count,
                "\(database)")
        }
    }
}
