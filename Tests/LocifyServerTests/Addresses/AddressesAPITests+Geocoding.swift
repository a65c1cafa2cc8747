import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Geocoding that fails: retried with back-off, and in the end a visible failure, the address usable.
extension AddressesAPITests {
    func testAFailingGeocoderRetriesWithBackOffAndLeavesTheAddressUsable() async throws {
        try await forEachDatabase { app, clock, database in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let down = NIOLockedValueBox(true)
            app.dependencies.geocoder = StubGeocoder { _ in
                if down.withLockedValue({ $0 }) { throw GeocoderDown() }
                return [Self.berlin]
            }
            let created = try await address(app, account, #"{"contact_id": \#(ada.id), "city": "Berlin"}"#)
            let ranWhileDown = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranWhileDown, 1)
            let firstJob = try await JobRecord.all(on: app.db).first
            let job = try XCTUnwrap(firstJob)
            XCTAssertEqual(job.state, .queued, "\(database)")
            XCTAssertEqual(job.attempts, 1)
            XCTAssertEqual(job.lastError, "GeocoderDown()")
            XCTAssertEqual(
                job.runAt.timeIntervalSince(clock.now), JobRunner.backOff(attempt: 1, jobID: job.id), accuracy: 0.01)
            XCTAssertGreaterThanOrEqual(JobRunner.backOff(attempt: 1, jobID: job.id), 30)
            XCTAssertGreaterThan(
                JobRunner.backOff(attempt: 3, jobID: job.id), JobRunner.backOff(attempt: 2, jobID: job.id))
            let ranEarly = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranEarly, 0, "not due before its back-off")
            let usable = try await app.send(.GET, "/api/addresses/\(created.id)", headers: account.bearer)
            XCTAssertEqual(try usable.decoded(DataEnvelope<AddressResource>.self).data.geocode.status, "pending")

            down.withLockedValue { $0 = false }
            clock.advance(by: 3600)
            let ranAfterBackOff = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranAfterBackOff, 1)
            let stateAfterRetry = try await JobRecord.all(on: app.db).first?.state
            XCTAssertEqual(stateAfterRetry, .done)
            let found = try await app.send(.GET, "/api/addresses/\(created.id)", headers: account.bearer)
            XCTAssertEqual(try found.decoded(DataEnvelope<AddressResource>.self).data.latitude, 52.52437)

            // Nothing found is an answer, not a failure.
            app.dependencies.geocoder = StubGeocoder { _ in [] }
            let nowhere = try await address(app, account, #"{"contact_id": \#(ada.id), "city": "Nowhere"}"#)
            try await app.jobRunner.runDue(now: clock.now)
            let notFound = try await app.send(.GET, "/api/addresses/\(nowhere.id)", headers: account.bearer)
            XCTAssertEqual(try notFound.decoded(DataEnvelope<AddressResource>.self).data.geocode.status, "not_found")
        }
    }

    func testAJobThatKeepsFailingEndsFailedAndVisible() async throws {
        try await forEachDatabase { app, clock, _ in
            let account = try await app.makeAccount()
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            app.dependencies.geocoder = StubGeocoder { _ in throw GeocoderDown() }
            _ = try await address(app, account, #"{"contact_id": \#(ada.id), "city": "Berlin"}"#)
            for _ in 0..<GeocodeAddressJob.maximumAttempts {
                try await app.jobRunner.runDue(now: clock.now)
                clock.advance(by: 7 * 3600)
            }
            let lastJob = try await JobRecord.all(on: app.db).first
            let job = try XCTUnwrap(lastJob)
            XCTAssertEqual(job.state, .failed)
            XCTAssertEqual(job.attempts, GeocodeAddressJob.maximumAttempts)
            let ranAfterFailure = try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(ranAfterFailure, 0)
        }
    }
}
