import ArgumentParser
import Foundation
import LocifyCore
import LocifyServer

extension Locify {
    struct Jobs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jobs",
            abstract: "See and act on background work (geocoding, notifications, imports).",
            discussion: """
                Done jobs are let go after LOCIFY_JOB_RETENTION_DAYS (7); a failed job stays until it is \
                retried or discarded here or on the Server page.
                """,
            subcommands: [List.self, Retry.self, Discard.self])
    }
}

extension Locify.Jobs {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List jobs, oldest first, with counts by kind and state.")

        @Option(
            name: .customLong("state"),
            help: "Only jobs in this state: queued, running, done or failed (repeat for several; default all but done)."
        )
        var states: [String] = []

        @Option(help: "At most this many jobs.")
        var limit = 200

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let states = states.isEmpty ? nil : states
            let (jobs, counts) = try await storage.withApplication { app in
                let administration = app.jobAdministration
                do {
                    return (try await administration.jobs(in: states, limit: limit), try await administration.counts())
                } catch let problem as JobAdministration.Problem {
                    throw CommandFailure(problem.description)
                }
            }
            if counts.isEmpty {
                print("No jobs.")
                return
            }
            print("KIND\tSTATE\tCOUNT")
            for count in counts { print("\(count.kind)\t\(count.state)\t\(count.count)") }
            print("")
            guard !jobs.isEmpty else {
                print("No jobs in that state.")
                return
            }
            print("ID\tSTATE\tKIND\tATTEMPTS\tRUN AT\tHELD BY\tLAST ERROR")
            for job in jobs {
                let error = job.lastError.map { String($0.prefix(120)).replacingOccurrences(of: "\n", with: " ") }
                print(
                    "\(job.id)\t\(job.state)\t\(job.kind)\t\(job.attempts)\t\(Timestamp.string(job.runAt))\t"
                        + "\(job.heldBy ?? "-")\t\(error ?? "-")")
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry", abstract: "Run a failed job again, its attempts counted afresh.")

        @Argument(help: "The job's id, from `locify jobs list --state failed`.")
        var id: Int

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            try await Locify.Jobs.act(on: id, storage: storage, saying: "is queued again") { try await $0.retry($1) }
        }
    }

    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "discard", abstract: "Let a failed job go without running it again.")

        @Argument(help: "The job's id, from `locify jobs list --state failed`.")
        var id: Int

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            try await Locify.Jobs.act(on: id, storage: storage, saying: "is discarded") { try await $0.discard($1) }
        }
    }

    /// Does `action` to job `id` and says so; what the operator asked for that cannot be is an error.
    static func act(
        on id: Int, storage: StorageOptions, saying outcome: String,
        _ action: @escaping @Sendable (JobAdministration, Int) async throws -> Void
    ) async throws {
        try await storage.withApplication { app in
            do {
                try await action(app.jobAdministration, id)
            } catch let problem as JobAdministration.Problem {
                throw CommandFailure(problem.description)
            }
        }
        print("Job \(id) \(outcome).")
    }
}
