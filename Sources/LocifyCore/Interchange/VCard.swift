import Foundation

/// A contact as a vCard 4.0 (RFC 6350) carries it.
public struct VCard: Equatable, Sendable {
    public struct Address: Equatable, Sendable {
        /// TYPE values, lower case ("home", "work"); Locify's free-text label goes in the first.
        public var types: [String]
        public var street: String?
        public var city: String?
        public var region: String?
        public var postalCode: String?
        public var country: String?
        /// The formatted address (LABEL parameter).
        public var label: String?
        public var coordinate: Coordinate?

        public init(
            types: [String] = [], street: String? = nil, city: String? = nil, region: String? = nil,
            postalCode: String? = nil, country: String? = nil, label: String? = nil, coordinate: Coordinate? = nil
        ) {
            self.types = types
            self.street = street
            self.city = city
            self.region = region
            self.postalCode = postalCode
            self.country = country
            self.label = label
            self.coordinate = coordinate
        }
    }

    /// A value with its TYPE parameters (`TEL;TYPE=cell,voice:+44…`), types as written.

    public struct TypedValue: Equatable, Sendable {
        public var types: [String]
        public var value: String

        public init(_ value: String, types: [String] = []) {
            self.types = types
            self.value = value
        }
    }

    public var uid: String?
    public var formattedName: String
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var emails: [TypedValue]
    public var telephones: [TypedValue]
    /// IMPP: messaging addresses as URIs (`telegram:ada`, `xmpp:ada@example.org`).
    public var messaging: [TypedValue]
    /// URL: web addresses, social profiles among them.
    public var urls: [TypedValue]
    public var birthday: Birthdate?
    public var addresses: [Address]
    public var photoURI: String?
    public var note: String?
    /// ORG's first part, and TITLE: where the person works and as what.
    public var organization: String?
    public var title: String?
    /// CATEGORIES: the contact's tags.
    public var categories: [String] = []
    /// GENDER (vCard 4.0): its sex component (M, F, O, N, U) and the gender's own name.
    public var genderSex: String?
    public var genderName: String?

    public init(
        uid: String? = nil, formattedName: String, givenName: String? = nil, familyName: String? = nil,
        nickname: String? = nil, emails: [TypedValue] = [], telephones: [TypedValue] = [],
        messaging: [TypedValue] = [], urls: [TypedValue] = [], birthday: Birthdate? = nil, addresses: [Address] = [],
        photoURI: String? = nil, note: String? = nil
    ) {
        self.uid = uid
        self.formattedName = formattedName
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
        self.emails = emails
        self.telephones = telephones
        self.messaging = messaging
        self.urls = urls
        self.birthday = birthday
        self.addresses = addresses
        self.photoURI = photoURI
        self.note = note
    }
}

public enum VCardFormat {
    /// The versions Locify writes: 4.0 (RFC 6350), and 3.0 (RFC 2426) for the address book apps that read
    /// nothing newer (Apple's).
    public enum Version: String, Sendable, CaseIterable {
        case three = "3.0"
        case four = "4.0"
    }

    /// vCard 4.0 text, CRLF line endings, lines folded at 75 octets.
    public static func write(_ cards: [VCard]) -> String {
        cards.map { write($0) }.joined()
    }

    /// The card in `version`: 3.0 has no GENDER, no LABEL or GEO on an address, and writes a birthday
    /// without its year as Apple's Contacts does (`BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29`).
    public static func write(_ card: VCard, version: Version = .four) -> String {
        let e = ContentLines.escape
        var lines = ["BEGIN:VCARD", "VERSION:" + version.rawValue]
        if let uid = card.uid { lines.append("UID:" + e(uid)) }
        lines.append("FN:" + e(card.formattedName))
        lines.append(
            "N:" + [card.familyName, card.givenName, nil, nil, nil].map { e($0 ?? "") }.joined(separator: ";"))
        if let nickname = card.nickname { lines.append("NICKNAME:" + e(nickname)) }
        for (name, values) in [
            ("EMAIL", card.emails), ("TEL", card.telephones), ("IMPP", card.messaging), ("URL", card.urls),
        ] {
            for typed in values { lines.append(name + typeParameter(typed.types) + ":" + e(typed.value)) }
        }
        if let birthday = card.birthday {
            switch (version, birthday.year) {
            case (.four, let year):
                let monthDay = String(format: "%02d%02d", birthday.month, birthday.day)
                lines.append("BDAY:" + (year.map { String(format: "%04d", $0) + monthDay } ?? "--" + monthDay))
            case (.three, let year?):
                lines.append("BDAY:" + String(format: "%04d-%02d-%02d", year, birthday.month, birthday.day))
            case (.three, nil):
                lines.append(
                    "BDAY;X-APPLE-OMIT-YEAR=1604:" + String(format: "1604-%02d-%02d", birthday.month, birthday.day))
            }
        }
        for address in card.addresses {
            var parameters = typeParameter(address.types)
            if version == .four, let label = address.label {
                parameters +=
                    ";LABEL=\""
                    + label.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\"", with: "'") + "\""
            }
            if version == .four, let point = address.coordinate {
                parameters += ";GEO=\"geo:\(MapLinks.number(point.latitude)),\(MapLinks.number(point.longitude))\""
            }
            let components = [
                nil, nil, address.street, address.city, address.region, address.postalCode, address.country,
            ]
            lines.append("ADR" + parameters + ":" + components.map { e($0 ?? "") }.joined(separator: ";"))
        }
        if let organization = card.organization { lines.append("ORG:" + e(organization)) }
        if let title = card.title { lines.append("TITLE:" + e(title)) }
        if !card.categories.isEmpty { lines.append("CATEGORIES:" + card.categories.map(e).joined(separator: ",")) }
        if version == .four, let sex = card.genderSex {
            lines.append("GENDER:" + sex + (card.genderName.map { ";" + e($0) } ?? ""))
        }
        if let photo = card.photoURI { lines.append(photoLine(photo, version: version)) }
        if let note = card.note { lines.append("NOTE:" + e(note)) }
        lines.append("END:VCARD")
        return lines.map(ContentLines.fold).joined()
    }

    /// `text` without the lines of `property` (unfolded; the others as written).
    public static func removing(_ property: String, from text: String) -> String {
        ContentLines.unfold(text).filter { ContentLines.parseLine($0)?.name != property }.map(ContentLines.fold)
            .joined()
    }

    /// A photo as `version` writes it: 4.0 takes the data URL as it is; 3.0 writes its bytes as
    /// `ENCODING=b` with the image's TYPE, and any other URI as `VALUE=uri`.
    static func photoLine(_ uri: String, version: Version) -> String {
        guard version == .three else { return "PHOTO:" + uri }
        guard uri.hasPrefix("data:"), let marker = uri.range(of: ";base64,") else { return "PHOTO;VALUE=uri:" + uri }
        let mediaType = uri[uri.index(uri.startIndex, offsetBy: 5)..<marker.lowerBound]
        let subtype = mediaType.split(separator: "/").last.map { $0.uppercased() } ?? "JPEG"
        return "PHOTO;ENCODING=b;TYPE=\(subtype):" + uri[marker.upperBound...]
    }

    /// A PHOTO line as a URI: 3.0's inline bytes (`ENCODING=b`) become a data URL.
    static func photoURI(of line: ContentLine) -> String {
        guard let encoding = line.parameter("ENCODING")?.lowercased(), ["b", "base64"].contains(encoding) else {
            return line.value
        }
        let type = (line.parameter("TYPE") ?? line.types.first ?? "jpeg").lowercased()
        let bytes = line.value.filter { !$0.isWhitespace }
        return "data:image/\(type.hasPrefix("image/") ? String(type.dropFirst(6)) : type);base64,\(bytes)"
    }

    /// Reads vCards 3.0 and 4.0. Cards without a name are reported, not dropped silently.
    public static func read(_ text: String) -> (cards: [VCard], issues: [InterchangeIssue]) {
        let numbered = readNumbered(text)
        return (numbered.cards.map(\.card), numbered.issues)
    }

    /// `read`, with each card's 1-based position in the file, for reports that name the card.
    public static func readNumbered(_ text: String) -> (
        cards: [(record: Int, card: VCard)], issues: [InterchangeIssue]
    ) {
        var cards: [(record: Int, card: VCard)] = []
        var issues: [InterchangeIssue] = []
        var current: [ContentLine]?
        var count = 0
        for line in ContentLines.parse(text) {
            if line.name == "BEGIN", line.value.uppercased() == "VCARD" {
                current = []
                count += 1
            } else if line.name == "END", line.value.uppercased() == "VCARD" {
                if let lines = current {
                    if let card = card(from: lines) {
                        cards.append((count, card))
                    } else {
                        issues.append(InterchangeIssue(record: count, reason: "no FN or N name"))
                    }
                }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return (cards, issues)
    }

    static func card(from lines: [ContentLine]) -> VCard? {
        func text(_ name: String) -> String? {
            lines.first { $0.name == name }.map { ContentLines.unescape($0.value) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let nameParts =
            lines.first { $0.name == "N" }.map { ContentLines.split($0.value, on: ";").map(ContentLines.unescape) }
            ?? []
        let family = nameParts.first.flatMap { $0.isEmpty ? nil : $0 }
        let given = nameParts.count > 1 && !nameParts[1].isEmpty ? nameParts[1] : nil
        guard let formatted = text("FN") ?? [given, family].compactMap({ $0 }).joined(separator: " ").nilIfEmpty else {
            return nil
        }
        let addresses = lines.filter { $0.name == "ADR" }.map { line -> VCard.Address in
            let parts = ContentLines.split(line.value, on: ";").map(ContentLines.unescape).map { $0.isEmpty ? nil : $0 }
            func part(_ index: Int) -> String? { index < parts.count ? parts[index] : nil }
            let types = line.types
            let label = line.parameter("LABEL").map { $0.replacingOccurrences(of: "\\n", with: "\n") }
            return VCard.Address(
                types: types, street: part(2), city: part(3), region: part(4), postalCode: part(5), country: part(6),
                label: label, coordinate: line.parameter("GEO").flatMap(parseGeo))
        }
        var card = VCard(
            uid: text("UID"), formattedName: formatted, givenName: given, familyName: family,
            nickname: text("NICKNAME"),
            emails: typedValues("EMAIL", in: lines), telephones: typedValues("TEL", in: lines),
            messaging: typedValues("IMPP", in: lines), urls: typedValues("URL", in: lines),
            birthday: text("BDAY").flatMap(parseBirthday),
            addresses: addresses, photoURI: lines.first { $0.name == "PHOTO" }.map(photoURI(of:)), note: text("NOTE"))
        card.organization = lines.first { $0.name == "ORG" }
            .flatMap { ContentLines.split($0.value, on: ";").first.map(ContentLines.unescape)?.nilIfEmpty }
        card.title = text("TITLE")
        if let gender = lines.first(where: { $0.name == "GENDER" }) {
            let parts = ContentLines.split(gender.value, on: ";").map(ContentLines.unescape)
            card.genderSex = parts.first?.uppercased().nilIfEmpty
            card.genderName = parts.count > 1 ? parts[1].nilIfEmpty : nil
        }
        card.categories = lines.filter { $0.name == "CATEGORIES" }
            .flatMap { ContentLines.split($0.value, on: ",").map(ContentLines.unescape) }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return card
    }

    /// Each non-empty `name` line's value with its types; a vCard 4 `tel:` URI is read as the number.
    private static func typedValues(_ name: String, in lines: [ContentLine]) -> [VCard.TypedValue] {
        lines.filter { $0.name == name }.compactMap { line in
            var value = ContentLines.unescape(line.value).trimmingCharacters(in: .whitespaces)
            if name == "TEL", value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
            return value.isEmpty ? nil : VCard.TypedValue(value, types: line.typesAsWritten)
        }
    }

    private static func typeParameter(_ types: [String]) -> String {
        types.isEmpty ? "" : ";TYPE=" + types.map(quoteIfNeeded).joined(separator: ",")
    }

    /// `19920229`, `1992-02-29`, `--0229`, `--02-29`.
    static func parseBirthday(_ text: String) -> Birthdate? {
        let digits = text.prefix { $0 != "T" }.filter(\.isNumber)
        if text.hasPrefix("--"), digits.count == 4, let month = Int(digits.prefix(2)), let day = Int(digits.suffix(2)) {
            return Birthdate(day: day, month: month)
        }
        guard digits.count == 8, let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)),
            let day = Int(digits.suffix(2))
        else { return nil }
        return Birthdate(day: day, month: month, year: year)
    }

    /// `geo:47.37,8.54` (vCard 4) or `47.37;8.54` (vCard 3).
    static func parseGeo(_ text: String) -> Coordinate? {
        let body = text.lowercased().hasPrefix("geo:") ? String(text.dropFirst(4)) : text
        let numbers = body.split(whereSeparator: { $0 == "," || $0 == ";" }).prefix(2).compactMap {
            Double($0.prefix { $0 != "?" })
        }
        guard numbers.count == 2, (-90...90).contains(numbers[0]), (-180...180).contains(numbers[1]) else { return nil }
        return Coordinate(latitude: numbers[0], longitude: numbers[1])
    }

    private static func quoteIfNeeded(_ value: String) -> String {
        value.contains(where: { ",;:\" ".contains($0) })
            ? "\"" + value.replacingOccurrences(of: "\"", with: "'") + "\"" : value
    }
}

extension ContentLine {
    /// The TYPE parameters' values, lower case: `TYPE=cell,voice` and `TYPE=cell;TYPE=voice` alike.
    var types: [String] { typesAsWritten.map { $0.lowercased() } }

    /// The TYPE parameters' values in their own case, for labels people named.
    var typesAsWritten: [String] {
        parameters.flatMap { parameter -> [String] in
            // vCard 2.1 writes types bare: `TEL;CELL;VOICE:`.
            if parameter.value.isEmpty { return parameter.name.isEmpty ? [] : [parameter.name.lowercased()] }
            guard parameter.name == "TYPE" else { return [] }
            return parameter.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension VCardFormat {
    /// What Locify writes from its own values; a client's card has these replaced, and keeps the rest.
    static let modeledProperties: Set<String> = [
        "BEGIN", "END", "VERSION", "UID", "FN", "N", "NICKNAME", "BDAY", "ADR", "LABEL", "EMAIL", "TEL", "IMPP",
        "URL", "ORG", "TITLE", "CATEGORIES", "NOTE", "GENDER", "REV", "PRODID",
    ]

    /// `card` written in `version`, carrying over every property of `original` (the card a client last
    /// wrote) that Locify does not model: `X-` properties, the photo (unless `card` has its own), related
    /// people, anniversaries, and
    /// the labels of an item group whose property is carried over. A modeled property's values are
    /// Locify's, except URL and IMPP values in `leftOut` (accounts no kind of field recognises), which
    /// stay as the client wrote them. So a card goes through Locify and back with nothing lost.
    public static func write(
        _ card: VCard, version: Version = .four, keepingFrom original: String, leftOut: Set<String> = []
    ) -> String {
        var candidates: [(line: String, group: String?)] = []
        var replacedGroups: Set<String> = []
        for raw in ContentLines.unfold(original) {
            guard let line = ContentLines.parseLine(raw) else { continue }
            let group = ContentLines.group(of: raw)
            let unrecognised =
                ["URL", "IMPP"].contains(line.name)
                && leftOut.contains(ContentLines.unescape(line.value).trimmingCharacters(in: .whitespaces))
            let modeled = modeledProperties.contains(line.name) || (line.name == "PHOTO" && card.photoURI != nil)
            if modeled, !unrecognised {
                if let group { replacedGroups.insert(group) }
                continue
            }
            candidates.append((raw, group))
        }
        let kept = candidates.filter { $0.group.map { !replacedGroups.contains($0) } ?? true }.map(\.line)
        let written = write(card, version: version)
        let end = "END:VCARD\r\n"
        guard !kept.isEmpty, written.hasSuffix(end) else { return written }
        return String(written.dropLast(end.count)) + kept.map(ContentLines.fold).joined() + end
    }
}
