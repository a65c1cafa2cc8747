import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// A geocoder whose answers the test writes; it counts its searches.
final class StubGeocoder: Geocoder, Sendable {
    private let answer: @Sendable (GeocodingQuery) throws -> [GeocodingResult]
    private let calls = NIOLockedValueBox(0)
    var searches: Int { calls.withLockedValue { $0 } }

    init(_ answer: @escaping @Sendable (GeocodingQuery) throws -> [GeocodingResult]) {
        self.answer = answer
    }

    func search(_ query: GeocodingQuery) async throws -> [GeocodingResult] {
        calls.withLockedValue { $0 += 1 }
        return try answer(query)
    }

    func reverse(_ coordinate: Coordinate) async throws -> GeocodingResult? { nil }
}
