import Foundation
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

final class JobWorkersTests: XCTestCase {
    func testTheFirstWorkerRunsEveryPeriodicTaskEachRoundAndAFailingOneStopsNoOther() async throws {
        try await withApp(.sqlite) { app, _ in
            XCTAssertEqual(
                app.periodicTasks.map(\.name),
                [
                    "planning notifications", "sweeping Gravatars", "letting go of old tombstones",
                    "letting go of finished work", "letting go of the delivery log",
                ],
                "the features register theirs in configure; the runner names none")
            struct Broken: Error {}
            let rounds = NIOLockedValueBox<[String]>([])
            app.periodicTasks = [
                PeriodicTask(name: "broken") { _ in
                    rounds.withLockedValue { $0.append("broken") }
                    throw Broken()
                },
                PeriodicTask(name: "counting") { _ in rounds.withLockedValue { $0.append("counting") } },
            ]
            let workers = JobWorkers(count: 2, pollInterval: .milliseconds(5))
            try workers.didBoot(app)
            let deadline = ContinuousClock.now + .seconds(10)
            while rounds.withLockedValue({ $0.count }) < 6, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            await workers.shutdownAsync(app)
            let seen = rounds.withLockedValue { $0 }
            XCTAssertGreaterThanOrEqual(seen.count, 6, "rounds went on after a task failed")
            // Only the first worker runs them: each round is the two tasks in order, never interleaved.
            let pairs = stride(from: 0, to: seen.count - 1, by: 2).map { Array(seen[$0...$0 + 1]) }
            XCTAssertEqual(Set(pairs), [["broken", "counting"]])
        }
    }
}
