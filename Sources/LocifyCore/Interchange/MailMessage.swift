import Foundation

/// A plain-text e-mail, written as the RFC 5322 text that `sendmail -t` and its kin read on standard input.
public struct MailMessage: Sendable, Equatable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var body: String
    public var date: Date
    public var messageID: String

    public init(from: String, to: [String], subject: String, body: String, date: Date, messageID: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
        self.date = date
        self.messageID = messageID
    }

    /// Headers first (non-ASCII words encoded per RFC 2047, line breaks removed so no header can be
    /// injected), a blank line, then the body with its line breaks made uniform.
    public var rfc5322Text: String {
        var lines = [
            "From: \(Self.headerValue(from))",
            "To: \(to.map(Self.headerValue).joined(separator: ", "))",
            "Subject: \(Self.encodedWord(Self.headerValue(subject)))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(Self.headerValue(messageID))>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "",
        ]
        let normalized = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        lines.append(contentsOf: normalized.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        return lines.joined(separator: "\n") + (normalized.hasSuffix("\n") ? "" : "\n")
    }

    static func headerValue(_ text: String) -> String {
        text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }.map(String.init).joined()
    }

    static func encodedWord(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !$0.isASCII }) else { return text }
        return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        let time = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return "\(weekday), \(parts.day ?? 1) \(month) \(parts.year ?? 1970) \(time) +0000"
    }
}
