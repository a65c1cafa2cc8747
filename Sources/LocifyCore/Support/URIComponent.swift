import Foundation

/// Text put into a URL's query or path: everything but RFC 3986's unreserved characters percent-encoded.
public enum URIComponent {
    private static let unreserved: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    public static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
