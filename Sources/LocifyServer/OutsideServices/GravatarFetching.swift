import Foundation
import LocifyCore
import NIOCore

/// A Gravatar picture, or nothing when the address has none.
struct GravatarImage: Sendable, Equatable {
    var contentType: String
    var bytes: Data
}

/// Looks up the Gravatar of an e-mail hash; `nil` means the address has no Gravatar (the avatar falls
/// back to initials), a thrown error that Gravatar could not be asked (try again later).
protocol GravatarFetching: Sendable {
    /// False when look-ups are off for the whole server (`LOCIFY_GRAVATAR_URL=off`).
    var isEnabled: Bool { get }
    func image(forHash hash: String, size: Int) async throws -> GravatarImage?
}

extension GravatarFetching {
    var isEnabled: Bool { true }
}

/// Asks `{base}/avatar/{hash}?s={size}&d=404`, so an address without a picture answers 404. Gives up after
/// 3 seconds: the look-up runs in the background and is tried again later.
struct LiveGravatarClient: GravatarFetching {
    let baseURL: String
    let http: any HTTPFetching
    var timeout: TimeAmount = .seconds(3)

    func image(forHash hash: String, size: Int) async throws -> GravatarImage? {
        let response = try await http.send(
            OutgoingRequest(
                url: "\(baseURL)/avatar/\(hash)?s=\(size)&d=404", timeout: timeout, maximumBodyBytes: 1024 * 1024))
        if response.status == .notFound { return nil }
        guard response.isSuccess else {
            throw OutsideServiceError(service: "Gravatar", reason: .status(Int(response.status.code)))
        }
        guard let type = response.headers.first(name: "Content-Type"), type.hasPrefix("image/") else {
            throw OutsideServiceError(service: "Gravatar", reason: .unreadable("not an image"))
        }
        return GravatarImage(contentType: type, bytes: response.body)
    }
}

/// `LOCIFY_GRAVATAR_URL=off`: nothing is looked up, so nothing is ever asked of this.
struct GravatarOff: GravatarFetching {
    var isEnabled: Bool { false }

    func image(forHash hash: String, size: Int) async throws -> GravatarImage? { nil }
}
