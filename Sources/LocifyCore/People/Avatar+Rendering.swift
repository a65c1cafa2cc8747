import Crypto
import Foundation

extension Avatar {
    /// An initials avatar as SVG: a circle of `background` with up to two letters in a colour that
    /// meets WCAG AA contrast on it. Scalable; `size` sets the intrinsic pixel size.
    public static func initialsSVG(name: String, background: String, size: Int = 200) -> String {
        let initials = escapeXML(displayInitials(of: name))
        let color = isHexColor(background) ? background : defaultColors[0]
        let text = textColor(on: color)
        let half = Double(size) / 2
        let fontSize = Double(size) * (initials.count > 1 ? 0.4 : 0.5)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)" \
            role="img" aria-label="\(escapeXML(name))"><circle cx="\(format(half))" cy="\(format(half))" r="\(format(half))" \
            fill="\(color)"/><text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="\(text)" \
            font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="\(format(fontSize))" \
            font-weight="600">\(initials)</text></svg>
            """
    }

    /// The initials avatar's disc alone, as a PNG of `size` × `size` (transparent outside the circle, its
    /// edge smoothed): what a client that cannot draw SVG gets when the server has no way to draw letters.
    public static func discPNG(background: String, size: Int) throws -> [UInt8] {
        let color = isHexColor(background) ? background : defaultColors[0]
        let hex = Int(color.dropFirst(), radix: 16) ?? 0
        let (red, green, blue) = (UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF))
        let radius = Double(size) / 2
        var rgba = [UInt8](repeating: 0, count: size * size * 4)
        for row in 0..<size {
            for column in 0..<size {
                // How far the pixel's centre lies inside the edge, as a 0–1 coverage over one pixel.
                let (x, y) = (Double(column) + 0.5 - radius, Double(row) + 0.5 - radius)
                let distance = (x * x + y * y).squareRoot()
                let coverage = min(max(radius - distance + 0.5, 0), 1)
                guard coverage > 0 else { continue }
                let offset = (row * size + column) * 4
                rgba[offset] = red
                rgba[offset + 1] = green
                rgba[offset + 2] = blue
                rgba[offset + 3] = UInt8((coverage * 255).rounded())
            }
        }
        return try PNG.encoded(width: size, height: size, rgba: rgba)
    }

    /// Gravatar's hash: MD5 of the trimmed, lower-cased address, in hex.
    public static func gravatarHash(email: String) -> String {
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return Insecure.MD5.hash(data: Data(normalized.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Gravatar's image URL; `d=404` makes a missing picture a 404 so the caller can fall back.
    public static func gravatarURL(email: String, size: Int = 200) -> String {
        "https://secure.gravatar.com/avatar/\(gravatarHash(email: email))?s=\(size)&d=404"
    }

    /// A colour chosen by a stable hash of any text, for objects without a UUID.
    public static func defaultColor(forText text: String) -> String {
        let digest = SHA256.hash(data: Data(text.utf8))
        return defaultColors[Int(digest.first { _ in true } ?? 0) % defaultColors.count]
    }

    static func isHexColor(_ text: String) -> Bool {
        text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
    }

    static func escapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}
