import Foundation
import Vapor

/// A parameter of a path, named once: the route is registered with it and its handler reads it
/// (`request.pathID(.noteID)`). Each feature declares its own: `extension PathParameter { static let … }`.
struct PathParameter: Sendable, Hashable {
    let name: String

    init(_ name: String) {
        self.name = name
    }
}

/// The pieces of a path the server serves: fixed words and parameters. Written once per path in the
/// feature's `…Paths` enum, it gives both the route's pattern and, filled in, the links to it.
struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case fixed(String)
        case parameter(PathParameter)
    }

    let segments: [Segment]

    /// What Vapor registers.
    var pathComponents: [PathComponent] {
        segments.map {
            switch $0 {
            case .fixed(let word): .constant(word)
            case .parameter(let parameter): .parameter(parameter.name)
            }
        }
    }

    /// `/contacts/:contactID/notes`, as Vapor writes a route's path.
    var description: String {
        "/" + pathComponents.map(\.description).joined(separator: "/")
    }

    /// The link with `values` in the parameters' places, in order.
    func filled(_ values: [String]) -> SiteLink {
        var remaining = values[...]
        let words = segments.map { segment -> String in
            switch segment {
            case .fixed(let word): return word
            case .parameter: return remaining.popFirst() ?? ""
            }
        }
        return SiteLink(path: "/" + words.joined(separator: "/"))
    }

    func appending(_ words: [String]) -> PathPattern {
        PathPattern(segments: segments + words.map(Segment.fixed))
    }

    func appending(_ parameter: PathParameter) -> PathPattern {
        PathPattern(segments: segments + [.parameter(parameter)])
    }
}

/// Where a link goes on this server: a path without parameters, or one filled in (`SiteLink`).
protocol SiteAddress: Sendable {
    var path: String { get }
}

extension SiteAddress {
    /// The path with query items, leaving out empty ones.
    func path(query items: [(String, String?)]) -> String {
        var components = URLComponents()
        components.path = path
        let present = items.compactMap { name, value in
            value.flatMap { $0.isEmpty ? nil : URLQueryItem(name: name, value: $0) }
        }
        components.queryItems = present.isEmpty ? nil : present
        return components.string ?? path
    }
}

/// A link to a page or a resource of this server: a path ready for a template, a redirect or a header.
struct SiteLink: SiteAddress, Hashable {
    let path: String
}

/// What a route is registered from: a path of one of the `…Paths` enums.
protocol RoutePath: Sendable {
    var pattern: PathPattern { get }
}

/// A path without parameters: the route and its one link.
struct SitePath: RoutePath, SiteAddress, Hashable {
    let pattern: PathPattern
    /// Written once: every page's layout and links read it.
    let path: String

    /// The path of `words` from the root: `SitePath("settings", "genders")`.
    init(_ words: String...) {
        self.init(pattern: PathPattern(segments: words.map(PathPattern.Segment.fixed)))
    }

    private init(pattern: PathPattern) {
        self.pattern = pattern
        path = pattern.filled([]).path
    }

    /// A path on this site a link or form field says to go to next (`next`, `return_to`), else nil: it
    /// cannot send anyone to another site (`//host`, `/\\host`, absolute URLs).
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.utf8.count <= 2_000
        else { return nil }
        return path
    }

    func appending(_ words: String...) -> SitePath {
        SitePath(pattern: pattern.appending(words))
    }

    /// The path followed by an id.
    func appending(_ parameter: PathParameter) -> SitePathWithOne<Int> {
        SitePathWithOne(pattern: pattern.appending(parameter))
    }

    /// The path followed by a text (a feed's secret, a file's name).
    func appending(text parameter: PathParameter) -> SitePathWithOne<String> {
        SitePathWithOne(pattern: pattern.appending(parameter))
    }
}

/// A path with one parameter (an id, or a text such as a feed's secret): `NotePaths.note(12)`.
struct SitePathWithOne<Value: LosslessStringConvertible & Sendable>: RoutePath {
    let pattern: PathPattern

    func callAsFunction(_ value: Value) -> SiteLink {
        pattern.filled([value.description])
    }

    /// The path with `placeholder` (`{id}`) in the parameter's place, for a client to fill in.
    func template(_ placeholder: String) -> String {
        pattern.filled([placeholder]).path
    }

    func appending(_ words: String...) -> SitePathWithOne {
        SitePathWithOne(pattern: pattern.appending(words))
    }

    func appending(_ parameter: PathParameter) -> SitePathWithTwo {
        SitePathWithTwo(pattern: pattern.appending(parameter))
    }
}

/// A path with two ids, the outer first: `AddressPaths.edit(contact, address)`.
struct SitePathWithTwo: RoutePath {
    let pattern: PathPattern

    func callAsFunction(_ outer: Int, _ inner: Int) -> SiteLink {
        pattern.filled([String(outer), String(inner)])
    }

    /// The path with placeholders (`{parent}`, `{id}`) in the parameters' places, for a client to fill in.
    func template(_ outer: String, _ inner: String) -> String {
        pattern.filled([outer, inner]).path
    }

    func appending(_ words: String...) -> SitePathWithTwo {
        SitePathWithTwo(pattern: pattern.appending(words))
    }

    func appending(_ parameter: PathParameter) -> SitePathWithThree {
        SitePathWithThree(pattern: pattern.appending(parameter))
    }
}

/// A path with three parameters (a map tile's zoom, column and file).
struct SitePathWithThree: RoutePath {
    let pattern: PathPattern

    /// The link with these three in the parameters' places: for a tile, the template a script fills
    /// (`{z}`, `{x}`, `{y}.png`).
    func callAsFunction(_ first: String, _ second: String, _ third: String) -> SiteLink {
        pattern.filled([first, second, third])
    }
}

/// Marks a route registered from a `RoutePath`, for the test that finds any registered by hand.
enum RegisteredPathKey {
    static let userInfo = "locify.path"
}

extension RoutesBuilder {
    /// Registers `handler` for `method` on `path`: the only way a route is added, so every route has a
    /// typed path its links are built from.
    @discardableResult
    func on<Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: some RoutePath, body: HTTPBodyStreamStrategy = .collect,
        use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        let route = on(method, path.pattern.pathComponents, body: body, use: handler)
        route.userInfo[RegisteredPathKey.userInfo] = path.pattern
        return route
    }

    @discardableResult
    func get<Response: AsyncResponseEncodable>(
        _ path: some RoutePath, use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        on(.GET, path, use: handler)
    }

    @discardableResult
    func post<Response: AsyncResponseEncodable>(
        _ path: some RoutePath, use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        on(.POST, path, use: handler)
    }

    @discardableResult
    func put<Response: AsyncResponseEncodable>(
        _ path: some RoutePath, use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        on(.PUT, path, use: handler)
    }

    @discardableResult
    func delete<Response: AsyncResponseEncodable>(
        _ path: some RoutePath, use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        on(.DELETE, path, use: handler)
    }
}
