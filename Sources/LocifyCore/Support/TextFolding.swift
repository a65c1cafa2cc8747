import Foundation

public enum TextFolding {
    /// Transliterates to ASCII where ICU knows how ("Дмитрий" → "Dmitrij", "Zoë" → "Zoe", "Ærø" → "AEro").
    public static func ascii(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 128 }) { return text }
        // Most text is accented Latin, which folding handles; ICU's slower transforms are for the rest.
        let folded = text.folding(options: .diacriticInsensitive, locale: nil)
        if folded.utf8.allSatisfy({ $0 < 128 }) { return folded }
        let latin = text.applyingTransform(.toLatin, reverse: false) ?? text
        let plain = latin.applyingTransform(StringTransform("Latin-ASCII"), reverse: false) ?? latin
        return plain.folding(options: .diacriticInsensitive, locale: nil)
    }

    /// The form used for search: ASCII, lower case, single spaces. Applied to both the stored text and
    /// the query, so "zurich" finds "Zürich" on SQLite and PostgreSQL alike.
    public static func searchKey(_ parts: [String?]) -> String {
        let joined = parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return ascii(joined).lowercased()
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }
}
