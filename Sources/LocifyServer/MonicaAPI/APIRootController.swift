import LocifyAPI
import Vapor

/// `GET /api` and `POST /oauth/login` (`GET /api/me` is the Contacts feature's: it shows the "me" contact).
struct APIRootController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.api, use: root)
    }

    func root(request: Request) async throws -> APIRootResource {
        APIRootResource(
            links: .init(
                contactsURL: request.absoluteURL(SitePaths.apiContacts),
                addressesURL: request.absoluteURL(SitePaths.apiAddresses),
                countriesURL: request.absoluteURL(SitePaths.apiCountries),
                remindersURL: request.absoluteURL(SitePaths.apiReminders),
                placesURL: request.absoluteURL(SitePaths.apiPlaces)))
    }

}

/// `POST /oauth/login`: Monica's password grant for apps that sign in with email and password.
struct OAuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(SitePaths.oauthLogin, use: logIn)
    }

    func logIn(request: Request) async throws -> OAuthLoginResource {
        let body = try Self.credentials(in: request)
        guard let email = body.email, let password = body.password, !email.isEmpty, !password.isEmpty else {
            throw AccountError.badCredentials
        }
        let user = try await request.logIn(email: email, password: password)
        let lifetime = AccountService.oauthTokenLifetime
        let (_, secret) = try await request.accounts.createToken(
            for: user.id,
            label: "OAuth log-in (\(request.headers.first(name: .userAgent)?.prefix(60) ?? "unknown client"))",
            lifetime: lifetime)
        return OAuthLoginResource(accessToken: secret, expiresIn: Int(lifetime))
    }

    /// The email and password, from JSON or from a form (read by `URLEncodedPairs`, so unknown keys are
    /// ignored as they are in JSON). A body that is neither is malformed, not a wrong password.
    static func credentials(in request: Request) throws -> OAuthLoginRequest {
        if request.headers.contentType == .urlEncodedForm {
            let fields = URLEncodedPairs.firstValues(in: request.body.string ?? "")
            return OAuthLoginRequest(email: fields["email"], password: fields["password"])
        }
        guard let body = try? request.content.decode(OAuthLoginRequest.self) else { throw AppError.malformedBody }
        return body
    }
}
