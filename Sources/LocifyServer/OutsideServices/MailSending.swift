import Foundation
import LocifyCore

/// Sends e-mail. The server does not speak SMTP itself: it hands the message to a local command such as
/// `sendmail -t -i` or `msmtp -t`, which every mail set-up provides.
protocol MailSending: Sendable {
    func send(_ message: MailMessage) async throws
}

/// Used when `LOCIFY_SENDMAIL` is not set: every send fails, saying how to turn mail on.
struct MailNotConfigured: MailSending {
    func send(_ message: MailMessage) async throws {
        throw OutsideServiceError(service: "Mail (set LOCIFY_SENDMAIL)", reason: .notConfigured)
    }
}

/// Hands the message to `command` on its standard input (see `ShellCommand`).
struct CommandMailer: MailSending {
    let command: String
    var timeout: Duration = .seconds(30)

    func send(_ message: MailMessage) async throws {
        _ = try await ShellCommand(command: command, service: "The mail command", timeout: timeout)
            .run(input: Data(message.rfc5322Text.utf8))
    }
}
