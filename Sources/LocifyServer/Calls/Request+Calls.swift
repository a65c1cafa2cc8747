import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's calls.
    func calls() throws -> CallService {
        CallService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a call input (see `jsonInput`).
    func callInput() throws -> CallInput {
        try jsonInput(CallInput.self, empty: CallInput(draft: CallDraft(), presentKeys: []))
    }

    func callResource(_ call: Call) async throws -> CallResource {
        try await callResources([call])[0]
    }

    /// Each call with its contact, the contacts read in one query.
    func callResources(_ calls: [Call]) async throws -> [CallResource] {
        let base = baseURL
        return try await resources(calls, contactOf: \.contactID) { call, contact in
            CallResource(call, url: base + CallPaths.apiCall(call.id).path, contact: contact)
        }
    }
}
