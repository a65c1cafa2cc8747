import LocifyAPI
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Answers to the API's busiest reads (the contact list), kept by the account's revision: every write to
/// what they show takes the account's next revision (`RevisionLog`), so an answer made at revision N is
/// the answer for as long as the account stays at N. Clients ask for the same first page again and
/// again between changes; each asks the database one question (the revision) instead of building it.
///
/// An answer is kept under the revision read *before* it was built: what it shows was committed at N or
/// later, which is what any request that read N may see. Nothing is kept or used inside a write
/// transaction (its revision is not committed yet and may roll back).
final class RevisionAnswers: Sendable {
    struct Entry: Sendable {
        let revision: Int
        let body: ByteBuffer
        let entityTag: String
    }

    /// Answers larger than this are built every time; a full list page of 100 contacts is about 170 kB.
    static let largestEntry = 512 * 1024
    static let capacity = 16 * 1024 * 1024

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())

    func entry(_ key: String, at revision: Int) -> Entry? {
        state.withLockedValue { state in
            guard let entry = state.entries[key], entry.revision == revision else { return nil }
            return entry
        }
    }

    /// Keeps `entry` in place of the key's older one: each key holds one answer, the newest made.
    func keep(_ entry: Entry, for key: String) {
        let size = entry.body.readableBytes
        guard size <= Self.largestEntry else { return }
        state.withLockedValue { state in
            if let old = state.entries[key] {
                guard old.revision <= entry.revision else { return }
                state.bytes -= old.body.readableBytes
            }
            if state.bytes + size > Self.capacity {
                // Start again rather than track use: the busy answers come back at the next read.
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.entries[key] = entry
            state.bytes += size
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
}

extension Application {
    private struct RevisionAnswersKey: StorageKey {
        typealias Value = RevisionAnswers
    }

    var revisionAnswers: RevisionAnswers {
        get { configured(RevisionAnswersKey.self) }
        set { storage[RevisionAnswersKey.self] = newValue }
    }
}

extension Request {
    /// `build`'s answer as JSON, or the same bytes kept from an earlier request of this account at its
    /// current revision. `variant` names everything else the answer depends on besides the account's
    /// rows and the request's address (the current year, the links' expiry): a request differing in any
    /// of them gets an answer of its own.
    func answerKeptByRevision<Answer: Encodable>(
        variant: String, build: () async throws -> Answer
    ) async throws -> Response {
        let user = try requireUser()
        guard WriteRevision.current == nil else { return try jsonResponse(try await build()).response }
        let revision = try await RevisionLogState.read(for: user.id, on: database).latest
        let key = "\(user.id) \(baseURL)\(url.string) \(variant)"
        let answers = application.revisionAnswers
        if let kept = answers.entry(key, at: revision) {
            return Self.response(body: kept.body, entityTag: kept.entityTag)
        }
        let (response, body) = try jsonResponse(try await build())
        let entityTag = ConditionalRequestsMiddleware.entityTag(of: body)
        response.headers.replaceOrAdd(name: .eTag, value: entityTag)
        answers.keep(RevisionAnswers.Entry(revision: revision, body: body, entityTag: entityTag), for: key)
        return response
    }

    private func jsonResponse(_ answer: some Encodable) throws -> (response: Response, body: ByteBuffer) {
        let body = ByteBuffer(bytes: try OrderedJSONEncoder().encodedBytes(answer))
        return (Self.response(body: body, entityTag: nil), body)
    }

    private static func response(body: ByteBuffer, entityTag: String?) -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: OrderedJSONEncoder.jsonContentType)
        if let entityTag { headers.replaceOrAdd(name: .eTag, value: entityTag) }
        return Response(status: .ok, headers: headers, body: .init(buffer: body))
    }
}
