import Crypto
import Foundation
import LocifyCore

/// What to show for a contact's picture.
public enum AvatarPicture: Sendable, Equatable {
    /// The contact's photo (or Gravatar picture) as the server sent it; `format` read from its bytes.
    case image(Data, format: ImageFormat?)
    /// No picture: the initials on the contact's colour, drawn here (Core's drawing, the server's own) —
    /// also what shows offline for a picture never downloaded.
    case initials(String, background: String, svg: String)
}

/// Contacts' pictures, kept in memory (the last `memoryLimit`) and on disk, by their address without its
/// signature (which changes every week while the picture does not; its `v=` changes with the picture).
/// A picture seen once shows from the device afterwards, offline too; a contact with no picture is drawn
/// here without asking the server.
public actor AvatarCache {
    private let directory: URL?
    private let memoryLimit: Int
    private let transport: any HTTPTransport
    private var memory: [String: Data] = [:]
    /// Keys, least recently used first.
    private var recency: [String] = []

    /// `directory` nil keeps pictures in memory only.
    public init(directory: URL?, memoryLimit: Int = 200, transport: any HTTPTransport = URLSessionTransport()) {
        self.directory = directory
        self.memoryLimit = max(1, memoryLimit)
        self.transport = transport
        if let directory { try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    }

    public func picture(for contact: StoredContact) async -> AvatarPicture {
        let avatar = contact.json.value(at: ["information", "avatar"])
        let background = avatar?["default_avatar_color"]?.string ?? Avatar.defaultColor(forText: contact.completeName)
        let drawn = AvatarPicture.initials(
            Avatar.displayInitials(of: contact.completeName), background: background,
            svg: Avatar.initialsSVG(name: contact.completeName, background: background))
        guard avatar?["source"]?.string != "default", let address = avatar?["url"]?.string,
            let url = URL(string: address), let key = Self.key(for: url)
        else { return drawn }
        if let kept = kept(key) { return .image(kept, format: ImageInfo([UInt8](kept))?.format) }
        do {
            let response = try await transport.send(
                HTTPRequest(method: "GET", url: url, headers: ["Accept": "image/*"]))
            guard response.status == 200, !response.body.isEmpty else { return drawn }
            keep(response.body, as: key)
            return .image(response.body, format: ImageInfo([UInt8](response.body))?.format)
        } catch {
            return drawn
        }
    }

    /// Forgets every picture (logging out).
    public func removeAll() {
        memory.removeAll()
        recency.removeAll()
        if let directory,
            let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        {
            for file in files { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// The address without what only signs it.
    static func key(for url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.queryItems = components.queryItems?.filter { !["expires", "signature"].contains($0.name) }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        return components.string
    }

    private func file(for key: String) -> URL? {
        let digest = SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
        return directory?.appendingPathComponent(digest)
    }

    private func kept(_ key: String) -> Data? {
        if let data = memory[key] {
            touch(key)
            return data
        }
        guard let file = file(for: key), let data = try? Data(contentsOf: file) else { return nil }
        remember(data, as: key)
        return data
    }

    private func keep(_ data: Data, as key: String) {
        remember(data, as: key)
        if let file = file(for: key) { try? data.write(to: file, options: .atomic) }
    }

    private func remember(_ data: Data, as key: String) {
        memory[key] = data
        touch(key)
        while recency.count > memoryLimit {
            memory.removeValue(forKey: recency.removeFirst())
        }
    }

    private func touch(_ key: String) {
        recency.removeAll { $0 == key }
        recency.append(key)
    }
}
