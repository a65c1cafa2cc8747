import Foundation
import LocifyAPI

/// Locify's API, typed: each call answers the resource its route answers (LocifyAPI's wire types) or
/// throws a `LocifyError` carrying the server's words. Stateless: the store and `LocifySync` keep what
/// an app needs between calls.
public struct LocifyClient: Sendable {
    public let serverURL: URL
    /// The personal token every `/api` call sends; nil before logging in.
    public let token: String?
    private let transport: any HTTPTransport

    public init(serverURL: URL, token: String? = nil, transport: any HTTPTransport = URLSessionTransport()) {
        self.serverURL = serverURL
        self.token = token
        self.transport = transport
    }

    /// A server address as a person types it: `https://locify.example.com` or `http://127.0.0.1:8080/`.
    public static func serverURL(_ text: String) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, let url = components.url
        else { throw LocifyError.badServerURL(text) }
        return url.path.hasSuffix("/") ? url : url.appendingPathComponent("")
    }

    /// Trades an email and password for a token, as Monica's apps do (`POST /oauth/login`); answers a
    /// client that sends it.
    public func logIn(email: String, password: String) async throws -> LocifyClient {
        let body = try JSONEncoder().encode(OAuthLoginRequest(email: email, password: password))
        let answer: OAuthLoginResource = try await send("POST", "oauth/login", body: body, authenticated: false)
        return LocifyClient(serverURL: serverURL, token: answer.accessToken, transport: transport)
    }

    /// The signed-in user (`GET /api/me`): also how an app checks a kept token still works.
    public func me() async throws -> UserResource {
        try await send("GET", "api/me", as: DataEnvelope<UserResource>.self).data
    }

    /// Whether the server answers at all (`GET /health/live`), without a token.
    public func isReachable() async -> Bool {
        (try? await send("GET", "health/live", as: LivenessResource.self, authenticated: false)) != nil
    }

    public func countries() async throws -> CountryListResource {
        try await send("GET", "api/countries", as: DataEnvelope<CountryListResource>.self).data
    }

    public func contacts(page: Int = 1, limit: Int = 100, query: String? = nil) async throws
        -> PageResource<ContactResource>
    {
        var items = [
            URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "limit", value: String(limit)),
        ]
        if let query { items.append(URLQueryItem(name: "query", value: query)) }
        return try await send("GET", "api/contacts", query: items)
    }

    public func contact(id: Int) async throws -> ContactResource {
        try await send("GET", "api/contacts/\(id)", as: DataEnvelope<ContactResource>.self).data
    }

    public func addresses(ofContact contactID: Int, page: Int = 1, limit: Int = 100) async throws
        -> PageResource<AddressResource>
    {
        try await send("GET", "api/contacts/\(contactID)/addresses", query: Self.page(page, limit))
    }

    public func address(id: Int) async throws -> AddressResource {
        try await send("GET", "api/addresses/\(id)", as: DataEnvelope<AddressResource>.self).data
    }

    public func places(page: Int = 1, limit: Int = 100) async throws -> PageResource<PlaceResource> {
        try await send(
            "GET", "api/places",
            query: [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "limit", value: String(limit))])
    }

    public func reminders(page: Int = 1, limit: Int = 100) async throws -> PageResource<ReminderResource> {
        try await send("GET", "api/reminders", query: Self.page(page, limit))
    }

    /// The reminders' timeline as the server groups it (overdue, today, this week, later).
    public func timeline() async throws -> ReminderTimelineResource {
        try await send("GET", "api/reminders/timeline", as: DataEnvelope<ReminderTimelineResource>.self).data
    }

    public func categories() async throws -> PlaceCategoryListResource {
        try await send("GET", "api/categories")
    }

    /// Marks a place a favorite, or not.
    public func setFavorite(placeID: Int, _ isFavorite: Bool) async throws -> PlaceResource {
        try await send(
            isFavorite ? "PUT" : "DELETE", "api/places/\(placeID)/favorite", as: DataEnvelope<PlaceResource>.self
        ).data
    }

    public func photos(ofContact contactID: Int, page: Int = 1, limit: Int = 100) async throws
        -> PageResource<PhotoResource>
    {
        try await send("GET", "api/contacts/\(contactID)/photos", query: Self.page(page, limit))
    }

    /// Adds a photo (JPEG, PNG, GIF or WebP, known by its bytes) to a contact. Sent again with the same
    /// `uuid` (a retry), it answers the photo the first try made.
    public func uploadPhoto(
        _ image: Data, toContact contactID: Int, fileName: String? = nil, uuid: UUID = UUID()
    ) async throws -> PhotoResource {
        var body: JSONValue = [
            "contact_id": .integer(contactID), "data": .string(image.base64EncodedString()),
            "uuid": .string(uuid.uuidString.lowercased()),
        ]
        if let fileName { body = body.setting(.string(fileName), at: ["original_filename"]) }
        return try await send("POST", "api/photos", as: DataEnvelope<PhotoResource>.self, body: body.data).data
    }

    /// What a contact's avatar shows: `photo` (with `photoID`), `gravatar` or `default` (the initials).
    public func chooseAvatar(ofContact contactID: Int, source: String, photoID: Int? = nil) async throws
        -> ContactResource
    {
        var body: JSONValue = ["source": .string(source)]
        if let photoID { body = body.setting(.integer(photoID), at: ["photo_id"]) }
        return try await send(
            "PUT", "api/contacts/\(contactID)/avatar", as: DataEnvelope<ContactResource>.self, body: body.data
        ).data
    }

    private static func page(_ page: Int, _ limit: Int) -> [URLQueryItem] {
        [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "limit", value: String(limit))]
    }

    /// One page of the sync feed after `cursor` (nil: everything), as raw JSON so that records of types and
    /// fields newer than this SDK are kept rather than refused.
    public func pull(cursor: String?, limit: Int = 1000) async throws -> SyncPage {
        var items = [URLQueryItem(name: "limit", value: String(limit))]
        if let cursor { items.append(URLQueryItem(name: "cursor", value: cursor)) }
        let response = try await exchange("GET", "api/sync", query: items)
        return try SyncPage(json: response.body)
    }

    /// The categories other accounts share with this one.
    public func sharedCategories() async throws -> [SharedCategoryResource] {
        try await send("GET", "api/sharedcategories", as: DataEnvelope<[SharedCategoryResource]>.self).data
    }

    /// One page of a shared category's feed after `cursor` (nil: everything); nil when the category is no
    /// longer shared with this account (revoked or left).
    public func pullShared(categoryID: Int, cursor: String?, limit: Int = 1000) async throws -> SharedPage? {
        var items = [URLQueryItem(name: "limit", value: String(limit))]
        if let cursor { items.append(URLQueryItem(name: "cursor", value: cursor)) }
        do {
            let response = try await exchange("GET", "api/sharedcategories/\(categoryID)/sync", query: items)
            return try SharedPage(json: response.body)
        } catch LocifyError.notFound {
            return nil
        }
    }

    /// Sends mutations made on the device (`POST /api/sync`).
    public func push(_ push: SyncPush) async throws -> SyncPushAnswer {
        let response = try await exchange("POST", "api/sync", body: push.json.data)
        return try SyncPushAnswer(json: response.body)
    }

    // MARK: - The exchange

    func send<Answer: Decodable>(
        _ method: String, _ path: String, as: Answer.Type = Answer.self, query: [URLQueryItem] = [], body: Data? = nil,
        authenticated: Bool = true
    ) async throws -> Answer {
        let response = try await exchange(method, path, query: query, body: body, authenticated: authenticated)
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw LocifyError.unexpectedAnswer("\(method) /\(path): \(error)")
        }
    }

    /// The response of a request that succeeded (2xx); any other answer becomes its `LocifyError`.
    func exchange(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, authenticated: Bool = true
    ) async throws -> HTTPResponse {
        guard
            var components = URLComponents(url: serverURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { throw LocifyError.badServerURL(serverURL.absoluteString) }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw LocifyError.badServerURL(serverURL.absoluteString) }
        var headers = ["Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        if authenticated {
            guard let token else { throw LocifyError.unauthenticated }
            headers["Authorization"] = "Bearer \(token)"
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
        } catch let failure as TransportFailure {
            throw LocifyError.unreachable(failure.description)
        }
        guard (200..<300).contains(response.status) else { throw Self.error(for: response, path: path) }
        return response
    }

    /// The server's refusal as a typed error, its messages kept.
    static func error(for response: HTTPResponse, path: String) -> LocifyError {
        let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: response.body)
        let messages: [String] =
            switch envelope?.error.message {
            case .text(let text): [text]
            case .list(let list): list
            case nil: []
            }
        let message = messages.joined(separator: " ")
        switch response.status {
        case 401 where path == "oauth/login":
            return .badCredentials(message.isEmpty ? "Email or password is not correct." : message)
        case 401: return .unauthenticated
        case 404 where envelope != nil: return .notFound(message)
        case 429: return .rateLimited(retryAfterSeconds: response.headers["retry-after"].flatMap { Int($0) })
        case 500..<600:
            // A proxy's "bad gateway" is the server being away, not failing.
            if [502, 503, 504].contains(response.status) && envelope == nil {
                return .unreachable("the server's address answers \(response.status) (it is down or restarting)")
            }
            return .serverFailed(status: response.status, message: message)
        default:
            guard let envelope else {
                return .unexpectedAnswer("/\(path) answered \(response.status), which is not Locify's API")
            }
            return .rejected(status: response.status, code: envelope.error.errorCode, messages: messages)
        }
    }
}
