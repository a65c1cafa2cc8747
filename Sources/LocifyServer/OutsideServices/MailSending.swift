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

/// Runs `command` through `/bin/sh -c` with the message on standard input; a non-zero exit is a failure
/// whose message carries what the command wrote to standard error.
struct CommandMailer: MailSending {
    let command: String
    var timeout: Duration = .seconds(30)

    func send(_ message: MailMessage) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        // A command that exits without reading its input must not take the server down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let watchdog = Task { [timeout] in
            try await Task.sleep(for: timeout)
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(
                    throwing: OutsideServiceError(service: "The mail command", reason: .unreachable("\(error)")))
                return
            }
            try? input.fileHandleForWriting.write(contentsOf: Data(message.rfc5322Text.utf8))
            try? input.fileHandleForWriting.close()
        }
        guard status == 0 else {
            let detail = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw OutsideServiceError(
                service: "The mail command",
                reason: .unreadable(
                    "exit status \(status)\(detail.isEmpty ? "" : ": \(detail.trimmingCharacters(in: .whitespacesAndNewlines))")"
                ))
        }
    }
}
