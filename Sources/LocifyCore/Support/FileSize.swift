import Foundation

/// A number of bytes as a person reads it: "12 bytes", "340 KB", "12.5 MB" (decimal units, as file managers show them).
public enum FileSize {
    public static func text(_ bytes: Int) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let megabytes = Double(bytes) / 1_000_000
        return megabytes < 0.1 ? "\(max(1, bytes / 1000)) KB" : String(format: "%.1f MB", megabytes)
    }
}
