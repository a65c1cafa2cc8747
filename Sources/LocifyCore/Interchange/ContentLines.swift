import Foundation

/// One `NAME;PARAM=value:VALUE` line of vCard (RFC 6350) and iCalendar (RFC 5545), unfolded.
public struct ContentLine: Equatable, Sendable {
    public var name: String
    public var parameters: [(name: String, value: String)]
    /// The raw value, still escaped (components and lists are split by the caller).
    public var value: String

    public init(name: String, parameters: [(name: String, value: String)] = [], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (lhs: ContentLine, rhs: ContentLine) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
            && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
            && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }
}

/// Reading and writing content lines: CRLF endings, 75-octet folding, text escaping.
public enum ContentLines {
    /// Lines of at most 75 octets, continued on the next line after a space, never splitting a
    /// UTF-8 character; every line ends in CRLF.
    public static func fold(_ line: String) -> String {
        var output = ""
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                output += current + "\r\n"
                current = " "
                octets = 1
            }
            current.append(character)
            octets += size
        }
        return output + current + "\r\n"
    }

    /// Joins continuation lines (those starting with a space or tab) and splits name, parameters
    /// and value. Accepts LF as well as CRLF, as files edited by hand have.
    public static func parse(_ text: String) -> [ContentLine] {
        unfold(text).compactMap(parseLine)
    }

    /// The lines of `text` with their continuations joined, as written (groups, parameters and all).
    public static func unfold(_ text: String) -> [String] {
        var unfolded: [String] = []
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if let first = raw.first, first == " " || first == "\t", !unfolded.isEmpty {
                unfolded[unfolded.count - 1] += raw.dropFirst()
            } else if !raw.trimmingCharacters(in: .whitespaces).isEmpty {
                unfolded.append(String(raw))
            }
        }
        return unfolded
    }

    /// A line's group (`item1` of `item1.X-ABLabel:Home`), if it has one.
    public static func group(of line: String) -> String? {
        let head = line.prefix { $0 != ";" && $0 != ":" }
        guard let dot = head.firstIndex(of: ".") else { return nil }
        return head[..<dot].uppercased()
    }

    public static func parseLine(_ line: String) -> ContentLine? {
        // The value starts at the first colon outside a quoted parameter value.
        var inQuotes = false
        var colon: String.Index?
        for index in line.indices {
            let character = line[index]
            if character == "\"" { inQuotes.toggle() }
            if character == ":", !inQuotes {
                colon = index
                break
            }
        }
        guard let colon else { return nil }
        let head = line[..<colon]
        let value = String(line[line.index(after: colon)...])
        var pieces: [String] = []
        var piece = ""
        inQuotes = false
        for character in head {
            if character == "\"" {
                inQuotes.toggle()
                continue
            }
            if character == ";", !inQuotes {
                pieces.append(piece)
                piece = ""
            } else {
                piece.append(character)
            }
        }
        pieces.append(piece)
        guard let rawName = pieces.first, !rawName.isEmpty else { return nil }
        // vCard groups ("item1.ADR") are dropped: Locify has no use for them.
        let name = rawName.split(separator: ".").last.map(String.init)?.uppercased() ?? rawName.uppercased()
        let parameters = pieces.dropFirst().map { parameter -> (name: String, value: String) in
            let parts = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            return ((parts.first ?? "").uppercased(), parts.count > 1 ? parts[1] : "")
        }
        return ContentLine(name: name, parameters: parameters, value: value)
    }

    /// Escapes text values: backslash, semicolon, comma and newline.
    public static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\\": output += "\\\\"
            case ";": output += "\\;"
            case ",": output += "\\,"
            case "\n", "\r\n": output += "\\n"
            case "\r": break
            default: output.append(character)
            }
        }
        return output
    }

    public static func unescape(_ text: String) -> String {
        var output = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n", "N": output += "\n"
                default: output.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// Splits on an unescaped separator (`;` between components, `,` between list items), keeping escapes.
    public static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}

/// A line a reader could not use, and why: readers report problems instead of failing a whole file.
public struct InterchangeIssue: Equatable, Sendable {
    /// 1-based position of the record (card, event, row) in the file.
    public let record: Int
    public let reason: String

    public init(record: Int, reason: String) {
        self.record = record
        self.reason = reason
    }
}
