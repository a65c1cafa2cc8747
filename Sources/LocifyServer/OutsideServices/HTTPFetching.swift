import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A request to an outside service, as plain values, so a stand-in can answer it without a socket.
struct OutgoingRequest: Sendable {
    var method: HTTPMethod = .GET
    var url: String
    var headers: HTTPHeaders = [:]
    var body: Data?
    var timeout: TimeAmount = .seconds(10)
    /// A larger answer is refused while it arrives, so a misbehaving service cannot fill the memory.
    var maximumBodyBytes = 8 * 1024 * 1024
}

struct FetchedResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders = [:]
    var body = Data()

    var isSuccess: Bool { (200..<300).contains(status.code) }
}

/// Sends HTTP requests to the outside world. Every outside client (tiles, Gravatar, webhooks, Nominatim)
/// goes through one of these, so all of them identify Locify the same way and tests can replace them all.
protocol HTTPFetching: Sendable {
    func send(_ request: OutgoingRequest) async throws -> FetchedResponse
}

/// Why an outside service did not give what was asked; the service's name comes first in the message.
struct OutsideServiceError: Error, CustomStringConvertible, Equatable {
    enum Reason: Equatable, Sendable {
        case notConfigured
        case unreachable(String)
        case status(Int)
        case tooLarge(limit: Int)
        case unreadable(String)
    }

    let service: String
    let reason: Reason

    var description: String {
        switch reason {
        case .notConfigured: "\(service) is not configured"
        case .unreachable(let detail): "\(service) could not be reached: \(detail)"
        case .status(let code): "\(service) answered with status \(code)"
        case .tooLarge(let limit): "\(service) sent more than \(limit) bytes"
        case .unreadable(let detail): "\(service) sent an answer that could not be read: \(detail)"
        }
    }
}

/// The real client: AsyncHTTPClient's shared pool, with Locify's User-Agent on every request.
struct LiveHTTPClient: HTTPFetching {
    let client: HTTPClient
    let userAgent: String

    func send(_ request: OutgoingRequest) async throws -> FetchedResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method
        outgoing.headers = request.headers
        if !outgoing.headers.contains(name: "User-Agent") {
            outgoing.headers.add(name: "User-Agent", value: userAgent)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let host = URL(string: request.url)?.host ?? request.url
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: request.timeout)
        } catch {
            throw OutsideServiceError(service: host, reason: .unreachable(String(describing: error)))
        }
        do {
            let body = try await response.body.collect(upTo: request.maximumBodyBytes)
            return FetchedResponse(status: response.status, headers: response.headers, body: Data(buffer: body))
        } catch is NIOTooManyBytesError {
            throw OutsideServiceError(service: host, reason: .tooLarge(limit: request.maximumBodyBytes))
        } catch {
            throw OutsideServiceError(service: host, reason: .unreachable(String(describing: error)))
        }
    }
}
