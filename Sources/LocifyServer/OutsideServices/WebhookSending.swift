import Foundation
import NIOHTTP1

/// Posts a JSON payload to a user's webhook. Any answer but 2xx is a failure, so the job retries it.
protocol WebhookSending: Sendable {
    /// Posts `json` to `url` with `idempotencyKey` as its `Idempotency-Key` header: the same notice sent
    /// again (its first try was cut off) carries the same key, so the receiver can tell.
    func post(json: Data, to url: String, idempotencyKey: String) async throws
}

struct LiveWebhookSender: WebhookSending {
    let http: any HTTPFetching

    func post(json: Data, to url: String, idempotencyKey: String) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Idempotency-Key", value: idempotencyKey)
        let response = try await http.send(
            OutgoingRequest(method: .POST, url: url, headers: headers, body: json, maximumBodyBytes: 64 * 1024))
        guard response.isSuccess else {
            throw OutsideServiceError(service: "The webhook", reason: .status(Int(response.status.code)))
        }
    }
}
