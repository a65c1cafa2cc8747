import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's calls.
    func calls() throws -> CallService {
        CallService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// Each call with its contact, the contacts read in one query.
    func callResources(_ calls: [Call]) async throws -> [CallResource] {
        let base = baseURL
        return try await resources(calls, contactOf: \.contactID) { call, contact in
            CallResource(call, url: base + CallPaths.apiCall(call.id).path, contact: contact)
        }
    }
}
