import Foundation
import LocifyAPI
import LocifyKit
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

extension Application {
    /// Serves the application on a free loopback port for `body`, as `locify serve` does: the SDK reaches
    /// it through the system's network stack.
    func listening(_ body: (URL) async throws -> Void) async throws {
        try await server.start(address: .hostname("127.0.0.1", port: 0))
        do {
            guard let port = http.server.shared.localAddress?.port, let url = URL(string: "http://127.0.0.1:\(port)/")
            else { throw Abort(.internalServerError, reason: "the server has no port") }
            try await body(url)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}

/// A network that is not there: every request fails as a phone in a tunnel's does.
struct NoNetwork: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw TransportFailure("no network")
    }
}

/// A server that answers what the test says, and keeps what it was asked.
final class ScriptedServer: HTTPTransport, Sendable {
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse
    private let asked = NIOLockedValueBox<[HTTPRequest]>([])

    init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.answer = answer
    }

    var requests: [HTTPRequest] { asked.withLockedValue { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        asked.withLockedValue { $0.append(request) }
        return answer(request)
    }
}

/// A store file of its own under the temporary directory, removed afterwards.
func withStoreFile(_ body: (String) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locify-kit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory.appendingPathComponent("store.sqlite").path)
}

/// The real network, counting what is asked of it.
final class CountingTransport: HTTPTransport, Sendable {
    private let network = URLSessionTransport()
    private let asked = NIOLockedValueBox<[String]>([])

    var paths: [String] { asked.withLockedValue { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        asked.withLockedValue { $0.append(request.url.path) }
        return try await network.send(request)
    }
}
