import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import XCTest

@testable import LocifyServer

/// An outside service a test did not set up: using it fails the test with the service's name, instead
/// of reaching the network or answering something plausible.
struct UnimplementedDependency: Error, CustomStringConvertible {
    let name: String
    var description: String { "the test used \(name) without setting a stand-in for it" }
}

/// A geocoder that fails loudly; tests that geocode pass a stand-in.
struct UnimplementedGeocoder: Geocoder {
    func search(_ query: GeocodingQuery) async throws -> [GeocodingResult] {
        XCTFail("geocoder.search was called without a stand-in")
        throw UnimplementedDependency(name: "geocoder")
    }

    func reverse(_ coordinate: Coordinate) async throws -> GeocodingResult? {
        XCTFail("geocoder.reverse was called without a stand-in")
        throw UnimplementedDependency(name: "geocoder")
    }
}

/// Fails the test with the client's name and throws, so an unplanned outside call cannot pass quietly.
private func unplanned(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> UnimplementedDependency {
    XCTFail("\(name) was called without a stand-in")
    return UnimplementedDependency(name: name)
}

/// Each outside client, failing loudly until a test gives it an answer; tests that expect a call set the
/// closure (or point a live client at a `LocalStandIn`).
struct FakeHTTPClient: HTTPFetching {
    var answer: (@Sendable (OutgoingRequest) async throws -> FetchedResponse)?

    func send(_ request: OutgoingRequest) async throws -> FetchedResponse {
        guard let answer else { throw unplanned("http.send(\(request.url))") }
        return try await answer(request)
    }
}

struct FakeTileFetcher: TileFetching {
    var answer: (@Sendable (Tile) async throws -> FetchedTile)?

    func fetch(_ tile: Tile) async throws -> FetchedTile {
        guard let answer else { throw unplanned("tiles.fetch(\(tile))") }
        return try await answer(tile)
    }
}

struct FakeGravatar: GravatarFetching {
    var answer: (@Sendable (String, Int) async throws -> GravatarImage?)?

    func image(forHash hash: String, size: Int) async throws -> GravatarImage? {
        guard let answer else { throw unplanned("gravatar.image") }
        return try await answer(hash, size)
    }
}

struct FakeWebhookSender: WebhookSending {
    var answer: (@Sendable (Data, String) async throws -> Void)?

    func post(json: Data, to url: String, idempotencyKey: String) async throws {
        guard let answer else { throw unplanned("webhooks.post(to: \(url))") }
        try await answer(json, url)
    }
}

struct FakeMailer: MailSending {
    var answer: (@Sendable (MailMessage) async throws -> Void)?

    func send(_ message: MailMessage) async throws {
        guard let answer else { throw unplanned("mailer.send") }
        try await answer(message)
    }
}

struct FakeRasterizer: SVGRasterizing {
    var answer: (@Sendable (String) async throws -> [UInt8])?

    func png(of svg: String) async throws -> [UInt8] {
        guard let answer else { throw unplanned("rasterizer.png") }
        return try await answer(svg)
    }
}

/// UUIDs 00000000-0000-0000-0000-000000000001, …02, in creation order, so whole responses are fixed.
final class SequentialUUIDs: Sendable {
    private let counter = NIOLockedValueBox(0)

    func next() -> UUID {
        let number = counter.withLockedValue { value -> Int in
            value += 1
            return value
        }
        return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", number)) ?? UUID()
    }
}

extension LocifyDependencies {
    /// Fixed time and ids, cheap bcrypt, and every outside service unimplemented.
    static func testing(clock: TestClock, uuids: SequentialUUIDs = SequentialUUIDs()) -> LocifyDependencies {
        LocifyDependencies(
            now: { clock.now }, newUUID: { uuids.next() }, passwords: .bcrypt(cost: 4),
            newSecret: { PersonalToken.generate() }, geocoder: UnimplementedGeocoder(), http: FakeHTTPClient(),
            tiles: FakeTileFetcher(), gravatar: FakeGravatar(), webhooks: FakeWebhookSender(), mailer: FakeMailer(),
            rasterizer: FakeRasterizer())
    }
}
