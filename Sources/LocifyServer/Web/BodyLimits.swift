import LocifyCore
import NIOConcurrencyHelpers
import Vapor

/// The most a route reads of a request's body, declared where the route is registered, so that the
/// body-limit middleware can refuse a larger declared length before reading a byte and the web's form
/// checks know how much a signed-in upload may hold. Routes that declare none take Vapor's default (1 MB).
struct BodyLimit: Sendable {
    let bytes: @Sendable (Application) -> Int
    let tooLarge: @Sendable (Application) -> any Error

    static func megabytes(_ count: Int) -> BodyLimit {
        BodyLimit(
            bytes: { _ in count * 1024 * 1024 }, tooLarge: { _ in BodyTooLarge(maximumBytes: count * 1024 * 1024) })
    }

    /// What every route reads unless it declares more: Vapor's default body size (1 MB, see `configure`).
    static let standard = BodyLimit(
        bytes: { $0.routes.defaultMaxBodySize.value },
        tooLarge: { BodyTooLarge(maximumBytes: $0.routes.defaultMaxBodySize.value) })

    /// A JSON body with a text of 100,000 characters (a note, a call's content): written as JSON escapes
    /// (twelve bytes for a character beyond the BMP) it passes the standard 1 MB.
    static let longText = megabytes(2)

    fileprivate static let userInfoKey = "locify.bodyLimit"
}

/// A body over its route's limit: 413, as soon as the declared length or the bytes read pass it.
struct BodyTooLarge: AppFailure, Equatable {
    let maximumBytes: Int
    var kind: FailureKind { .tooLarge }
    var messages: [String] {
        let megabytes = max(1, maximumBytes / (1024 * 1024))
        return ["The request is larger than the \(megabytes) MB this address accepts."]
    }
}

extension RoutesBuilder {
    /// A `POST` that takes an upload: its body streams in, is read up to `limit` (by the web's form checks
    /// first, where they apply) and is whole when `closure` runs.
    @discardableResult
    func upload<Output: AsyncResponseEncodable>(
        _ path: some RoutePath, limit: BodyLimit, use closure: @escaping @Sendable (Request) async throws -> Output
    ) -> Route {
        on(.POST, path, limit: limit, use: closure)
    }
}

extension RoutesBuilder {
    /// A JSON route whose body may be larger than the standard limit (a journal entry of a million
    /// characters): read whole, up to `limit`, before `closure` runs.
    @discardableResult
    func on<Output: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: some RoutePath, limit: BodyLimit,
        use closure: @escaping @Sendable (Request) async throws -> Output
    ) -> Route {
        let route = on(method, path, body: .stream) { request async throws -> Output in
            try await request.collectBody()
            return try await closure(request)
        }
        route.userInfo[BodyLimit.userInfoKey] = limit
        return route
    }
}

extension Request {
    /// The matched route's limit, or the standard one for routes that declare none.
    var bodyLimit: BodyLimit {
        route?.userInfo[BodyLimit.userInfoKey] as? BodyLimit ?? .standard
    }

    /// The body's length as the client declared it, when it did.
    var declaredBodyLength: Int? {
        headers.first(name: .contentLength).flatMap(Int.init)
    }

    /// The upload's form, decoded on the CPU pool: a 32 MB multipart body is too long a parse for an event
    /// loop, which would stop answering every other request meanwhile.
    func decodedUpload<Form: Content>(_ type: Form.Type) async throws -> Form {
        try await application.cpuWork.offloaded { try self.content.decode(Form.self) }
    }

    /// Reads the whole body up to `limit` (the route's unless given); a body read already is measured.
    func collectBody(upTo limit: BodyLimit? = nil) async throws {
        let limit = limit ?? bodyLimit
        let maximum = limit.bytes(application)
        if let data = body.data {
            guard data.readableBytes <= maximum else { throw limit.tooLarge(application) }
            return
        }
        do {
            _ = try await body.collect(max: maximum + 1).get()
        } catch let abort as Abort where abort.status == .payloadTooLarge {
            throw limit.tooLarge(application)
        }
    }
}

/// Refuses a body whose declared length is over its route's limit before any of it is read, on every
/// route: the rest is then discarded as it arrives instead of being held.
struct BodyLimitMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if let length = request.declaredBodyLength, request.body.data == nil {
            let limit = request.bodyLimit
            if length > limit.bytes(request.application) {
                return request.eventLoop.makeFailedFuture(limit.tooLarge(request.application))
            }
        }
        return next.respond(to: request)
    }
}

/// Reads a streamed body for the web's form checks with the least held in memory: a multipart form's
/// first part (where every form of this app puts its CSRF token) is looked at as soon as it has arrived,
/// and only a body that passes `admit` is read on, up to `limit`. A refused body's remaining bytes are
/// discarded as they come.
enum GuardedBodyReader {
    /// The most held before `admit` has spoken: a token and its part's headers fit many times over.
    static let firstPartWindow = 16 * 1024

    private struct State {
        var buffer: ByteBuffer
        var admitted = false
        var finished = false
    }

    /// Collects the body into the request. `admit` is asked once, with the bytes read so far, when they
    /// hold the first part (or the window is full, or the body ended); its error stops the read.
    static func collect(
        _ request: Request, boundary: String, limit: Int, tooLarge: any Error,
        admit: @escaping @Sendable (ByteBuffer) -> (any Error)?
    ) async throws {
        let promise = request.eventLoop.makePromise(of: ByteBuffer.self)
        let state = NIOLockedValueBox(State(buffer: request.byteBufferAllocator.buffer(capacity: 0)))
        let delimiter = Array("\r\n--\(boundary)".utf8)
        request.body.drain { part in
            state.withLockedValue { state in
                guard !state.finished else { return }
                func finish(_ error: (any Error)?) {
                    state.finished = true
                    if let error {
                        state.buffer = request.byteBufferAllocator.buffer(capacity: 0)
                        promise.fail(error)
                    } else {
                        promise.succeed(state.buffer)
                    }
                }
                switch part {
                case .buffer(var chunk):
                    // Before admission the buffer stays under the window, so one chunk more is the most held.
                    guard state.buffer.readableBytes + chunk.readableBytes <= limit else {
                        return finish(state.admitted ? tooLarge : admit(state.buffer) ?? tooLarge)
                    }
                    state.buffer.writeBuffer(&chunk)
                    if !state.admitted,
                        state.buffer.readableBytes >= firstPartWindow
                            || state.buffer.readableBytesView.firstRange(of: delimiter) != nil
                    {
                        if let refusal = admit(state.buffer) { return finish(refusal) }
                        state.admitted = true
                    }
                case .error(let error):
                    finish(error)
                case .end:
                    finish(state.admitted ? nil : admit(state.buffer))
                }
            }
            return request.eventLoop.makeSucceededVoidFuture()
        }
        let body = try await promise.futureResult.get()
        try request.content.encode(CollectedBody(), using: CollectedBodyWriter(body: body))
    }

    /// The value of the first part of a multipart body when that part is the field `name`.
    static func firstField(named name: String, in body: ByteBuffer, boundary: String) -> String? {
        let bytes = Array(body.readableBytesView)
        let opening = Array("--\(boundary)\r\n".utf8)
        guard let start = bytes.firstRange(of: opening)?.upperBound,
            let headersEnd = bytes[start...].firstRange(of: Array("\r\n\r\n".utf8)),
            let valueEnd = bytes[headersEnd.upperBound...].firstRange(of: Array("\r\n--\(boundary)".utf8))
        else { return nil }
        let headers = String(decoding: bytes[start..<headersEnd.lowerBound], as: UTF8.self).lowercased()
        guard headers.contains("name=\"\(name.lowercased())\"") else { return nil }
        return String(decoding: bytes[headersEnd.upperBound..<valueEnd.lowerBound], as: UTF8.self)
    }
}

/// Puts bytes already read back as the request's collected body: Vapor's only public way to set a
/// request's body is to encode content into it.
private struct CollectedBody: Encodable {}

private struct CollectedBodyWriter: ContentEncoder {
    let body: ByteBuffer

    func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        var bytes = self.body
        body.writeBuffer(&bytes)
    }
}
