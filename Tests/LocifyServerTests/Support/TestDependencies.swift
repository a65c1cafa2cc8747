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
            newSecret: { PersonalToken.generate() }, geocoder: UnimplementedGeocoder())
    }
}
