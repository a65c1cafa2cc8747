/// How a contact search matches: each term of the query is a substring of the contact's search key
/// (`ContactFields.searchKey(fieldData:)`).
public enum ContactSearch {
    /// What a phone number may hold besides digits, as people type it: `+44 (0)20 7946-0000`, `020/79.46`.
    private static let phonePunctuation: Set<Character> = ["+", "-", "(", ")", ".", "/", " ", "\u{00A0}"]

    /// The digits of `text` when it reads as a phone number (digits and phone punctuation only, at least
    /// three digits); nil otherwise. A stored number keeps these beside its typed form, and a query of
    /// this shape is matched by them, so `02079460000` finds `020 7946 0000` and the other way round.
    public static func phoneDigits(_ text: String) -> String? {
        var digits = ""
        for character in text {
            if character.isASCII, character.isWholeNumber {
                digits.append(character)
            } else if !phonePunctuation.contains(character), !character.isWhitespace {
                return nil
            }
        }
        return digits.count >= 3 ? digits : nil
    }

    /// The terms a query matches by: a phone number's digits, or else its folded words. Nil for a query
    /// no contact can match: one holding NUL, which no stored text holds (and PostgreSQL refuses).
    public static func terms(of query: String?) -> [String]? {
        guard let query else { return [] }
        if query.unicodeScalars.contains("\u{0}") { return nil }

        if let digits = phoneDigits(query) { return [digits] }
        return TextFolding.searchKey([query]).split(separator: " ").map(String.init)
    }
}
