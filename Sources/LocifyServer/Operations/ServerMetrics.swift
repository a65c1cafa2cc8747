import CoreMetrics
import Fluent
import Foundation
import NIOConcurrencyHelpers
import Prometheus
import SQLKit
import Vapor

/// The Prometheus side of `swift-metrics`: Vapor counts every request and times it by route
/// (`http_requests_total`, `http_request_duration_seconds`), Locify's own code counts notifications,
/// and the state that lives in the database (jobs by kind and state, connections) is read when
/// `/metrics` is asked. The metrics system is one per process, so it is started once, by the first
/// application that serves metrics.
enum ServerMetrics {
    private static let started = NIOLockedValueBox(false)

    /// The registry behind the process's metrics; `/metrics` writes it out.
    static var registry: PrometheusCollectorRegistry { PrometheusMetricsFactory.defaultRegistry }

    /// Starts the process's metrics system, once; later calls do nothing.
    static func start() {
        let first = started.withLockedValue { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        var factory = PrometheusMetricsFactory(registry: registry)
        // Most pages answer in a few milliseconds: buckets that start at 1 ms tell them apart.
        factory.defaultDurationHistogramBuckets = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000]
            .map { Duration.microseconds(Int64($0 * 1000)) }
        MetricsSystem.bootstrap(factory)
    }

    /// A notice that reached its channel, or failed to.
    static func countDelivery(on channel: String, succeeded: Bool) {
        Counter(
            label: succeeded ? "locify_notifications_sent_total" : "locify_notifications_failed_total",
            dimensions: [("channel", channel)]
        ).increment()
    }

    /// Reads what lives in the database into gauges, then writes every metric in Prometheus' text format.
    static func exposition(of application: Application, on database: any Database) async throws -> [UInt8] {
        let counts = try await application.jobAdministration.counts()
        var byKindAndState: [String: [String: Int]] = [:]
        for kind in application.jobHandlers.map(\.kind) {
            byKindAndState[kind] = Dictionary(
                uniqueKeysWithValues: JobAdministration.State.allCases.map { ($0.rawValue, 0) })
        }
        for count in counts { byKindAndState[count.kind, default: [:]][count.state] = count.count }
        for (kind, states) in byKindAndState {
            for (state, count) in states {
                registry.makeGauge(name: "locify_jobs", labels: [("kind", kind), ("state", state)]).set(Double(count))
            }
        }
        let config = application.locifyConfig
        let loops = System.coreCount
        let budget: Int
        switch config.storage {
        case .sqlite: budget = loops
        case .postgres:
            budget = loops * LocifyConfig.postgresConnectionsPerEventLoop
            let rows = try await database.plainRows(
                #"""
                SELECT COALESCE("state", 'unknown') AS "state", COUNT(*) AS "count" FROM pg_stat_activity \#
                WHERE "datname" = current_database() GROUP BY 1
                """#, columns: ["state", "count"])
            var byState = ["active": 0, "idle": 0, "idle in transaction": 0]
            for row in rows { byState[try row.requiredText(0)] = try row.requiredInteger(1) }
            for (state, count) in byState {
                registry.makeGauge(name: "locify_database_connections", labels: [("state", state)])
                    .set(Double(count))
            }
        }
        registry.makeGauge(name: "locify_database_connections_per_instance_max").set(Double(budget))
        let holder = try await Lease.periodicWorkHolder(
            now: application.dependencies.now(), on: database)
        registry.makeGauge(name: "locify_periodic_work_held")
            .set(holder == application.jobRunner.workerID ? 1.0 : 0.0)
        return registry.emitToBuffer()
    }
}
