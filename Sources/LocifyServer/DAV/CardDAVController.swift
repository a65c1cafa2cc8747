import Foundation
import LocifyCore
import Vapor

/// CardDAV (RFC 6352 on WebDAV, RFC 4918): discovery (RFC 6764 and 5397), `PROPFIND` on the principal,
/// the address book home and the address book, `REPORT` (`addressbook-multiget`, `addressbook-query`,
/// `sync-collection` of RFC 6578), and `GET`, `PUT` and `DELETE` of each card. The phone's own Contacts
/// app, DAVx5 or Thunderbird connect with the server's address, the account's e-mail and an app password
/// (a personal API token).
struct CardDAVController: RouteCollection {
    static let davHeader = "1, 3, addressbook, calendar-access"
    static let allowedMethods = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT"
    static let collectionPaths = [
        DAVPaths.root, DAVPaths.principal, DAVPaths.addressBookHome, DAVPaths.addressBook,
    ]

    func boot(routes: any RoutesBuilder) throws {
        for wellKnown in [DAVPaths.wellKnownCardDAV, DAVPaths.wellKnownCalDAV] {
            for method in [HTTPMethod.GET, .PROPFIND] {
                routes.on(method, wellKnown) { request in
                    request.redirect(to: DAVPaths.collection(DAVPaths.root), redirectType: .permanent)
                }
            }
        }
        // Clients ask what a server speaks before they sign in.
        for path in Self.collectionPaths { routes.on(.OPTIONS, path, use: options) }
        routes.on(.OPTIONS, DAVPaths.card, use: options)

        let signedIn = routes.grouped(DAVFailureMiddleware(), DAVAuthenticator())
        signedIn.on(.PROPFIND, DAVPaths.root) { try await propfind($0, at: .root) }
        signedIn.on(.PROPFIND, DAVPaths.principal) { try await propfind($0, at: .principal) }
        signedIn.on(.PROPFIND, DAVPaths.addressBookHome) { try await propfind($0, at: .addressBookHome) }
        signedIn.on(.PROPFIND, DAVPaths.addressBook) { try await propfind($0, at: .addressBook) }
        signedIn.on(.PROPFIND, DAVPaths.card) { request in
            try await propfind(request, at: .card(try Self.fileName(of: request)))
        }
        signedIn.on(.REPORT, DAVPaths.addressBook, use: report)
        signedIn.on(.GET, DAVPaths.card, use: card)
        signedIn.on(.PUT, DAVPaths.card, use: put)
        signedIn.on(.DELETE, DAVPaths.card, use: delete)
    }

    func options(request: Request) -> Response {
        Response(
            status: .ok,
            headers: ["DAV": Self.davHeader, "Allow": Self.allowedMethods, "Content-Length": "0"])
    }

    /// The resources of the DAV tree.
    enum Resource {
        case root, principal, addressBookHome, addressBook
        /// A card, by its file name.
        case card(String)
    }

    func propfind(_ request: Request, at resource: Resource) async throws -> Response {
        let asked = try DAVRequestBody.propertyRequest(ofPropfind: Data(buffer: request.body.data ?? ByteBuffer()))
        // Depth "infinity" (and none, which means it) is answered as 1: the tree is two levels deep.
        let depth = request.headers.first(name: "Depth") == "0" ? 0 : 1
        let user = try request.requireUser()
        let book = try AddressBook(request)
        var responses: [DAVMultistatus.Response] = []
        func add(_ href: String, _ known: [(DAVName, DAVMultistatus.Value)]) {
            responses.append(.init(href: href, known: known, request: asked))
        }
        switch resource {
        case .root:
            add(
                DAVPaths.collection(DAVPaths.root),
                Self.principalLinks + [(.dav("resourcetype"), .elements([.dav("collection")]))])
            if depth > 0 {
                add(DAVPaths.collection(DAVPaths.principal), principalProperties(of: user))
                add(DAVPaths.collection(DAVPaths.addressBookHome), Self.homeProperties)
                add(DAVPaths.collection(DAVPaths.calendarHome), CalDAVController.homeProperties)
            }
        case .principal:
            add(DAVPaths.collection(DAVPaths.principal), principalProperties(of: user))
        case .addressBookHome:
            add(DAVPaths.collection(DAVPaths.addressBookHome), Self.homeProperties)
            if depth > 0 {
                add(
                    DAVPaths.collection(DAVPaths.addressBook),
                    addressBookProperties(try await book.logState(), for: request))
            }
        case .addressBook:
            add(
                DAVPaths.collection(DAVPaths.addressBook),
                addressBookProperties(try await book.logState(), for: request))
            if depth > 0 {
                for card in try await book.allCards() { add(card.href, Self.cardProperties(card, with: asked)) }
            }
        case .card(let name):
            guard let card = try await book.cards(named: [name])[name] else { throw DAVFailure.notFound }
            add(card.href, Self.cardProperties(card, with: asked))
        }
        return Self.multistatus(DAVMultistatus(responses: responses))
    }

    func report(request: Request) async throws -> Response {
        let book = try AddressBook(request)
        switch try DAVRequestBody.report(Data(buffer: request.body.data ?? ByteBuffer())) {
        case .addressBookMultiget(let asked, let hrefs, let addressData):
            let version = try Self.version(addressData.version)
            let names = hrefs.map(DAVPaths.fileName(inHref:))
            let cards = try await book.cards(named: names.compactMap { $0 })
            let photos = try await book.photos(of: Self.asksForData(asked) ? Array(cards.values) : [])
            let responses = zip(hrefs, names).map { href, name -> DAVMultistatus.Response in
                guard let card = name.flatMap({ cards[$0] }) else { return .init(href: href, status: 404) }
                return Self.member(card, asked: asked, in: version, only: addressData, photos: photos)
            }
            return Self.multistatus(DAVMultistatus(responses: responses))
        case .addressBookQuery(let asked, let matches, let allOf, let limit, let addressData):
            let version = try Self.version(addressData.version)
            var found = try await book.allCards().filter { card in
                guard !matches.isEmpty else { return true }
                let test = { (match: DAVTextMatch) in
                    match.matches(Self.values(match.property, of: card.card))
                }
                return allOf ? matches.allSatisfy(test) : matches.contains(where: test)
            }
            var responses: [DAVMultistatus.Response] = []
            if let limit, found.count > limit {
                found = Array(found.prefix(limit))
                // RFC 6352 8.6.1: the results were cut at the client's limit.
                responses.append(.init(href: DAVPaths.collection(DAVPaths.addressBook), status: 507))
            }
            let photos = try await book.photos(of: Self.asksForData(asked) ? found : [])
            responses.insert(
                contentsOf: found.map {
                    Self.member($0, asked: asked, in: version, only: addressData, photos: photos)
                },
                at: 0)
            return Self.multistatus(DAVMultistatus(responses: responses))
        case .syncCollection(let token, let asked, let limit, let addressData):
            let version = try Self.version(addressData.version)
            let state = try await book.logState()
            let changed: [AddressBook.Card]
            let deleted: [String]
            if token.isEmpty {
                (changed, deleted) = (try await book.allCards(), [])
            } else {
                guard let revision = state.revision(ofToken: token) else {
                    throw DAVFailure(status: .forbidden, condition: .dav("valid-sync-token"))
                }
                (changed, deleted) = try await book.changes(after: revision)
            }
            if let limit, changed.count + deleted.count > limit {
                throw DAVFailure(status: .insufficientStorage, condition: .dav("number-of-matches-within-limits"))
            }
            let photos = try await book.photos(of: Self.asksForData(asked) ? changed : [])
            let responses =
                changed.map {
                    Self.member($0, asked: asked, in: version, only: addressData, photos: photos)
                }
                + deleted.map { DAVMultistatus.Response(href: $0, status: 404) }
            return Self.multistatus(DAVMultistatus(responses: responses, syncToken: state.token))
        case .calendarMultiget, .calendarQuery, .unsupported:
            throw DAVFailure(status: .forbidden, condition: .dav("supported-report"))
        }
    }

    func card(request: Request) async throws -> Response {
        let name = try Self.fileName(of: request)
        let book = try AddressBook(request)
        guard let card = try await book.cards(named: [name])[name] else { throw DAVFailure.notFound }
        if let known = request.headers.first(name: .ifNoneMatch), EntityTags(known).matches(card.etag, weakly: true) {
            return Response(status: .notModified, headers: ["ETag": card.etag])
        }
        // RFC 6352 5.1.1: the version a client reads is asked for as the media type's parameter.
        let accept = request.headers.first(name: .accept) ?? ""
        let version: VCardFormat.Version =
            accept.contains("version=3.0") && !accept.contains("version=4.0") ? .three : .four
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "text/vcard; charset=utf-8")
        headers.replaceOrAdd(name: .eTag, value: card.etag)
        return Response(
            status: .ok, headers: headers,
            body: .init(string: card.text(in: version, photos: try await book.photos(of: [card]))))
    }

    /// A card written by its client: a new contact at a new file name, else the contact there changed to
    /// what the card says. `If-None-Match: *` makes sure of a new one and `If-Match` of the version the
    /// client last saw (412 otherwise). The answer carries no ETag: the card served back is Locify's
    /// writing of it, so the client reads it again.
    func put(request: Request) async throws -> Response {
        let name = try Self.fileName(of: request)
        let user = try request.requireUser()
        let body = request.body.data ?? ByteBuffer()
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        let (cards, issues) = VCardFormat.read(text)
        guard cards.count == 1, issues.isEmpty else {
            throw DAVFailure(
                status: .badRequest, condition: .cardDAV("valid-address-data"),
                message: cards.isEmpty && issues.isEmpty
                    ? "The body is no vCard." : "The body must be one vCard with a name (FN or N).")
        }
        // The condition is checked in the change's transaction, under the account's write lock: of two
        // changes sent at once with the same If-Match, one is made and the other answers 412.
        let created: Bool
        do {
            created = try await request.db.write(ownedBy: user.id, at: request.dependencies.now()) { _ in
                let existing = try await AddressBook(request).cards(named: [name])[name]
                try Self.checkPreconditions(of: request, currentTag: existing?.etag)
                _ = try await CardWriter(request: request, ownerID: user.id).save(
                    cards[0], text: text, fileName: name, over: existing?.contact)
                return existing == nil
            }
        } catch let failure as ValidationFailure {
            throw DAVFailure(
                status: .badRequest, condition: .cardDAV("valid-address-data"),
                message: failure.messages.joined(separator: " "))
        }
        request.application.jobWorkers?.nudge()
        return Response(status: created ? .created : .noContent)
    }

    func delete(request: Request) async throws -> Response {
        let name = try Self.fileName(of: request)
        let user = try request.requireUser()
        try await request.db.write(ownedBy: user.id, at: request.dependencies.now()) { _ in
            guard let existing = try await AddressBook(request).cards(named: [name])[name] else {
                throw DAVFailure.notFound
            }
            try Self.checkPreconditions(of: request, currentTag: existing.etag)
            try await request.contacts().delete(existing.contact.id)
        }
        return Response(status: .noContent)
    }

    /// `If-None-Match: *` (the card must be new) and `If-Match` (it must still be the version named).
    static func checkPreconditions(of request: Request, currentTag: String?) throws {
        if request.headers.first(name: .ifNoneMatch)?.trimmingCharacters(in: .whitespaces) == "*", currentTag != nil {
            throw DAVFailure(status: .preconditionFailed, message: "A card is already at this address.")
        }
        if let ifMatch = request.headers.first(name: .ifMatch) {
            guard let currentTag, EntityTags(ifMatch).matches(currentTag, weakly: false) else {
                throw DAVFailure(
                    status: .preconditionFailed,
                    message: "The card changed since it was read (its ETag is another): read it again.")
            }
        }
    }

    // MARK: Properties

    static let principalLinks: [(DAVName, DAVMultistatus.Value)] = [
        (.dav("current-user-principal"), .href(DAVPaths.collection(DAVPaths.principal))),
        (.dav("principal-URL"), .href(DAVPaths.collection(DAVPaths.principal))),
        (.cardDAV("addressbook-home-set"), .href(DAVPaths.collection(DAVPaths.addressBookHome))),
        (.calDAV("calendar-home-set"), .href(DAVPaths.collection(DAVPaths.calendarHome))),
    ]

    static let homeProperties: [(DAVName, DAVMultistatus.Value)] =
        principalLinks + [
            (.dav("resourcetype"), .elements([.dav("collection")])), (.dav("displayname"), .text("Address books")),
        ]

    func principalProperties(of user: AuthenticatedUser) -> [(DAVName, DAVMultistatus.Value)] {
        Self.principalLinks + [
            (.dav("resourcetype"), .elements([.dav("principal")])),
            (.dav("displayname"), .text(user.profile.name.isEmpty ? user.profile.email : user.profile.name)),
            // RFC 4791 6.2.1 (RFC 6638): who the calendars' owner is, as calendar apps name people.
            (.calDAV("calendar-user-address-set"), .hrefs(["mailto:" + user.profile.email])),
        ]
    }

    func addressBookProperties(_ state: RevisionLogState, for request: Request) -> [(DAVName, DAVMultistatus.Value)] {
        Self.principalLinks + [
            (.dav("resourcetype"), .elements([.dav("collection"), .cardDAV("addressbook")])),
            (.dav("displayname"), .text("Contacts")),
            (.cardDAV("addressbook-description"), .text("Your contacts in Locify")),
            (.dav("sync-token"), .text(state.token)),
            // Every route reads at most the standard body (`BodyLimit.standard`).
            (.cardDAV("max-resource-size"), .text(String(BodyLimit.standard.bytes(request.application)))),
            (.calendarServer("getctag"), .text(state.token)),
            (
                .dav("supported-report-set"),
                .markup(
                    ["card:addressbook-multiget", "card:addressbook-query", "d:sync-collection"].map {
                        "<d:supported-report><d:report><\($0)/></d:report></d:supported-report>"
                    }.joined())
            ),
            (
                .cardDAV("supported-address-data"),
                .markup(
                    VCardFormat.Version.allCases.map {
                        #"<card:address-data-type content-type="text/vcard" version="\#($0.rawValue)"/>"#
                    }.joined())
            ),
            (
                .dav("current-user-privilege-set"),
                .markup(
                    [
                        "read", "write", "write-properties", "write-content", "bind", "unbind",
                        "read-current-user-privilege-set",
                    ].map { "<d:privilege><d:\($0)/></d:privilege>" }.joined())
            ),
        ]
    }

    /// A card as a report lists it: its address and the properties asked for.
    static func member(
        _ card: AddressBook.Card, asked: DAVPropertyRequest, in version: VCardFormat.Version,
        only addressData: DAVAddressDataRequest, photos: [String: String]
    ) -> DAVMultistatus.Response {
        .init(
            href: card.href,
            known: cardProperties(card, with: asked, in: version, only: addressData, photos: photos), request: asked)
    }

    /// Whether a report asks for the cards' text (so their pictures are read).
    static func asksForData(_ asked: DAVPropertyRequest) -> Bool {
        if case .some(let names) = asked { return names.contains(.cardDAV("address-data")) }
        return false
    }

    /// A card's properties; its text only when asked for by name (RFC 6352: not in `allprop`).
    static func cardProperties(
        _ card: AddressBook.Card, with asked: DAVPropertyRequest, in version: VCardFormat.Version = .four,
        only addressData: DAVAddressDataRequest = DAVAddressDataRequest(), photos: [String: String] = [:]
    ) -> [(DAVName, DAVMultistatus.Value)] {
        var known: [(DAVName, DAVMultistatus.Value)] = [
            (.dav("getetag"), .text(card.etag)),
            (.dav("getcontenttype"), .text("text/vcard; charset=utf-8")),
        ]
        // The length is the text's: known without reading the picture only for a card that has none.
        if card.photoDigest.map({ photos[$0] != nil }) ?? true {
            known.append((.dav("getcontentlength"), .text(String(card.text(in: .four, photos: photos).utf8.count))))
        }
        known.append((.dav("resourcetype"), .elements([])))
        if asksForData(asked) {
            known.append(
                (.cardDAV("address-data"), .text(addressData.selected(from: card.text(in: version, photos: photos)))))
        }
        return known
    }

    /// What a query's text-match compares for a vCard property.
    static func values(_ property: String, of card: VCard) -> [String] {
        switch property {
        case "FN": [card.formattedName]
        case "N": [card.familyName, card.givenName].compactMap { $0 }
        case "NICKNAME": card.nickname.map { [$0] } ?? []
        case "EMAIL": card.emails.map(\.value)
        case "TEL": card.telephones.map(\.value)
        case "UID": card.uid.map { [$0] } ?? []
        case "ORG": card.organization.map { [$0] } ?? []
        case "CATEGORIES": card.categories
        case "NOTE": card.note.map { [$0] } ?? []
        default: []
        }
    }

    /// The vCard version an `address-data` element asks for: 4.0 when it names none; one Locify does not
    /// write is refused as RFC 6352 says (`supported-address-data`).
    static func version(_ asked: String?) throws -> VCardFormat.Version {
        guard let asked else { return .four }
        guard let version = VCardFormat.Version(rawValue: asked) else {
            throw DAVFailure(status: .forbidden, condition: .cardDAV("supported-address-data"))
        }
        return version
    }

    static func multistatus(_ answer: DAVMultistatus) -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "application/xml; charset=utf-8")
        return Response(status: .multiStatus, headers: headers, body: .init(string: answer.xml))
    }

    static func fileName(of request: Request) throws -> String {
        guard let name = request.parameters.get(PathParameter.cardName.name), !name.isEmpty else {
            throw DAVFailure.notFound
        }
        return name
    }
}
