import Crypto
import Foundation

/// The bundled files' addresses as pages load them: each carries a digest of its content (`?v=…`), so
/// a browser's copy, and the offline app's, is replaced exactly when the file changes and never before.
enum StaticAssets {
    /// `path?v=` and the first twelve hex digits of the file's SHA-256 (the plain path when the file is
    /// missing from the bundle, which a test rules out).
    static func versioned(_ path: SitePath) -> String {
        guard let digest = digests[path.path] else { return path.path }
        return path.path + "?v=" + digest
    }

    /// The digest of everything an installed offline app keeps: the public files, the page templates
    /// and the service worker's own script. A new one installs a new service worker.
    static let shellVersion: String = {
        var hash = SHA256()
        for folder in ["Public", "Views", "ServiceWorker"] {
            for (name, data) in files(in: folder) {
                hash.update(data: Data(name.utf8))
                hash.update(data: data)
            }
        }
        return hex(hash.finalize()).prefix(16) + ""
    }()

    private static let digests: [String: String] = Dictionary(
        uniqueKeysWithValues: files(in: "Public").map { name, data in
            ("/" + name, String(hex(SHA256.hash(data: data)).prefix(12)))
        })

    /// Every file under the bundle's folder, by its path inside it, in a stable order.
    private static func files(in folder: String) -> [(String, Data)] {
        guard let root = Bundle.module.resourceURL?.appendingPathComponent(folder),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
            .compactMap { url -> (String, Data)? in
                guard let data = try? Data(contentsOf: url) else { return nil }
                return (String(url.path.dropFirst(root.path.count).drop(while: { $0 == "/" })), data)
            }
            .sorted { $0.0 < $1.0 }
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
