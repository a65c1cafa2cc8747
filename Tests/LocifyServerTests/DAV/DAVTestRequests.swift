import Foundation
import XCTVapor

@testable import LocifyServer

/// What the CardDAV and CalDAV tests send and read: requests signed in with Basic and an app password,
/// and the members and sync token of a multistatus.
extension XCTestCase {
    func basic(_ account: TestAccount, password: String? = nil) -> HTTPHeaders {
        let credentials = Data("\(account.email):\(password ?? account.token)".utf8).base64EncodedString()
        return ["Authorization": "Basic \(credentials)"]
    }

    func dav(
        _ app: Application, _ method: HTTPMethod, _ path: String, _ account: TestAccount, depth: String? = nil,
        body: String? = nil
    ) async throws -> XCTHTTPResponse {
        var headers = basic(account)
        if let depth { headers.add(name: "Depth", value: depth) }
        headers.add(name: .contentType, value: "application/xml; charset=utf-8")
        return try await app.send(method, path, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// Each `<d:response>` of a multistatus: its href, its status (a gone member's) and its getetag.
    struct DAVMember: Equatable {
        let href: String
        let status: String?
        let etag: String?
    }

    func members(_ xml: String) -> [DAVMember] {
        xml.components(separatedBy: "<d:response>").dropFirst().map { part in
            func value(_ tag: String) -> String? {
                guard let start = part.range(of: "<\(tag)>"),
                    let end = part.range(of: "</\(tag)>", range: start.upperBound..<part.endIndex)
                else { return nil }
                return String(part[start.upperBound..<end.lowerBound])
            }
            let bare = part.components(separatedBy: "<d:propstat>").first ?? part
            let status = bare.contains("<d:status>") ? value("d:status") : nil
            return DAVMember(href: value("d:href") ?? "", status: status, etag: value("d:getetag"))
        }
    }

    func token(in xml: String) -> String {
        guard let start = xml.range(of: "<d:sync-token>"), let end = xml.range(of: "</d:sync-token>") else { return "" }
        return String(xml[start.upperBound..<end.lowerBound])
    }
}

extension HTTPHeaders {
    func adding(_ name: String, _ value: String) -> HTTPHeaders {
        var copy = self
        copy.add(name: name, value: value)
        return copy
    }
}
