import Crypto
import Foundation
import Vapor

/// Conditional requests on the API, so clients that keep copies neither fetch what they have nor
/// overwrite what they have not seen:
/// - every JSON answer to a `GET` carries a strong `ETag`, a digest of its body, so it changes with
///   anything the answer shows (a contact's addresses and tags included); `If-None-Match` with it
///   answers 304 and no body;
/// - a `PUT`, `PATCH` or `DELETE` with `If-Match` goes ahead only when the `GET` of the same address
///   still answers that ETag (or `*`); otherwise 412 with the error envelope, and nothing changes. A
///   request without `If-Match` is carried out as before (Monica's clients send none).
///
/// The read and the change are one write transaction of the account, which holds its write lock from
/// the read to the commit: of two changes sent at once with the same `If-Match`, one goes ahead and
/// the other reads what the first made and answers 412.
struct ConditionalRequestsMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        switch request.method {
        case .GET:
            return next.respond(to: request).map { Self.tagged($0, answering: request) }
        case .PUT, .PATCH, .DELETE:
            guard let condition = request.headers.first(name: .ifMatch),
                let user = request.auth.get(AuthenticatedUser.self)
            else { return next.respond(to: request) }
            let now = request.dependencies.now()
            return request.eventLoop.makeFutureWithTask {
                // The route's services write through `request.database`, this transaction.
                let response = try await request.db.write(ownedBy: user.id, at: now) { _ in
                    // Nothing to compare with (a missing record): the change answers as it would without.
                    if let current = try await Self.currentTag(of: request).get(),
                        !EntityTags(condition).matches(current, weakly: false)
                    {
                        throw ChangedSinceRead()
                    }
                    return try await next.respond(to: request).get()
                }
                // What the change queued (an address to geocode) can be seen now that it has committed.
                request.application.jobWorkers?.nudge()
                return response
            }
        default:
            return next.respond(to: request)
        }
    }

    /// `response` with its ETag, or a 304 when the client already has that answer.
    private static func tagged(_ response: Response, answering request: Request) -> Response {
        guard response.status == .ok, isJSON(response.headers), let body = response.body.buffer else {
            return response
        }
        // A route that kept its answer kept its digest too (`answerKeptByRevision`).
        let tag = response.headers.first(name: .eTag) ?? entityTag(of: body)
        response.headers.replaceOrAdd(name: .eTag, value: tag)
        guard let known = request.headers.first(name: .ifNoneMatch), EntityTags(known).matches(tag, weakly: true)
        else { return response }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .eTag, value: tag)
        return Response(status: .notModified, headers: headers)
    }

    /// Whether the answer is JSON, told from the header's first bytes: `HTTPHeaders.contentType` parses
    /// the header's parameters through Foundation, which was a tenth of the CPU of a `GET /api/me`.
    private static func isJSON(_ headers: HTTPHeaders) -> Bool {
        guard let type = headers.first(name: .contentType) else { return false }
        let json = "application/json".utf8
        let start = type.utf8.prefix(json.count + 1)
        return start.starts(with: json) && (start.count == json.count || start.last == UInt8(ascii: ";"))
    }

    static func entityTag(of body: ByteBuffer) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\"")]
        for byte in SHA256.hash(data: body.readableBytesView).prefix(16) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        text.append(UInt8(ascii: "\""))
        return String(decoding: text, as: UTF8.self)
    }

    /// The ETag the `GET` of the request's address answers now, as the same client (inside the change's
    /// transaction, which the `GET` reads through); nil when that is not a 200 (no such record, or no
    /// `GET` there).
    private static func currentTag(of request: Request) -> EventLoopFuture<String?> {
        // Every header the client sent but those about the change's body and its condition: the answer
        // names its own address from `Host` (and a proxy's `X-Forwarded-Proto`), so a GET without them
        // answered other URLs, and another ETag, than the client's own.
        var headers = request.headers
        for name in [HTTPHeaders.Name.contentType, .contentLength, .transferEncoding, .expect, .ifMatch, .ifNoneMatch] {
            headers.remove(name: name)
        }
        let probe = Request(
            application: request.application, method: .GET, url: request.url, headers: headers,
            remoteAddress: request.remoteAddress, logger: request.logger, on: request.eventLoop)
        return request.application.responder.respond(to: probe).map { response in
            response.status == .ok ? response.headers.first(name: .eTag) : nil
        }
    }
}

/// The entity tags of an `If-Match` or `If-None-Match` header (`*`, or a list).
struct EntityTags {
    private let tags: [String]

    init(_ header: String) {
        tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `tag` is among them. The strong comparison (`If-Match`) takes no weak tag (`W/"…"`); the
    /// weak one (`If-None-Match`) ignores the mark.
    func matches(_ tag: String, weakly: Bool) -> Bool {
        tags.contains { candidate in
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { return weakly && String(candidate.dropFirst(2)) == tag }
            return candidate == tag
        }
    }
}

/// A change sent with an `If-Match` the record no longer answers.
struct ChangedSinceRead: AppFailure {
    var kind: FailureKind { .preconditionFailed }
    var messages: [String] {
        [
            "This record changed since you read it: read it again (GET answers its new ETag), apply your "
                + "change to it and send it with If-Match set to that ETag."
        ]
    }
}
