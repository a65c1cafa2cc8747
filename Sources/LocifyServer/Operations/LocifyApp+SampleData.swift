import LocifyCore
import Vapor

/// The sample data of the command line (`seed`).
extension LocifyApp {
    /// Fills the account with the sample people and places; what is already there is not added again.
    public static func fillWithSampleData(in app: Application, email: String, peopleOnly: Bool = false)
        async throws -> String
    {
        try await sampleData(in: app, email: email).fill(peopleOnly: peopleOnly).summary
    }

    /// Takes away what the sample data added, and nothing else.
    public static func removeSampleData(in app: Application, email: String) async throws -> String {
        let removed = try await sampleData(in: app, email: email).remove()
        return "Removed \(removed.contacts) sample contacts and \(removed.places) sample places."
    }

    private static func sampleData(in app: Application, email: String) async throws -> SampleData {
        SampleData(
            database: app.db, owner: try await requireAccount(in: app, email: email), dependencies: app.dependencies,
            geocoderEnabled: app.locifyConfig.geocoder != .off, jobsQueued: {})
    }
}

extension Request {
    /// The signed-in user's sample data.
    func sampleData() throws -> SampleData {
        let workers = application.jobWorkers
        return SampleData(
            database: database, owner: try requireUser(), dependencies: dependencies,
            geocoderEnabled: application.locifyConfig.geocoder != .off, jobsQueued: { workers?.nudge() })
    }
}
