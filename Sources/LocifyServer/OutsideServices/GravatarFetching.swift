import Foundation
import LocifyCore

/// A Gravatar picture, or nothing when the address has none.
struct GravatarImage: Sendable, Equatable {
    var contentType: String
    var bytes: Data
}

/// Looks up the Gravatar of an e-mail hash; `nil` means the address has no Gravatar (the avatar falls
/// back to initials), a thrown error that Gravatar could not be asked (try again later).
protocol GravatarFetching: Sendable {
    func image(forHash hash: String, size: Int) async throws -> GravatarImage?
}

/// Asks `{base}/avatar/{hash}?s={size}&d=404`, so an address without a picture answers 404.
struct LiveGravatarClient: GravatarFetching {
    let baseURL: String
    let http: any HTTPFetching

    func image(forHash hash: String, size: Int) async throws -> GravatarImage? {
        let response = try await http.send(
            OutgoingRequest(url: "\(baseURL)/avatar/\(hash)?s=\(size)&d=404", maximumBodyBytes: 1024 * 1024))
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
