import Dispatch
import Foundation

/// A command the administrator configured (a mailer, a rasteriser), run through `/bin/sh -c` with `input`
/// on its standard input. A non-zero exit, a timeout or too much output is a failure naming `service`,
/// whose message carries what the command wrote to standard error.
struct ShellCommand: Sendable {
    let command: String
    /// Names the command in errors and logs, e.g. "The mail command".
    let service: String
    var timeout: Duration = .seconds(30)
    /// The most standard output kept; a command that writes more fails.
    var outputLimit = 16 * 1024 * 1024

    /// What the command wrote to standard output.
    func run(input: Data) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        // A command that exits without reading its input must not take the server down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw OutsideServiceError(service: service, reason: .unreachable("\(error)"))
        }
        let watchdog = Task { [timeout] in
            guard (try? await Task.sleep(for: timeout)) != nil, process.isRunning else { return false }
            // SIGKILL, not SIGTERM: a command started from one of the server's threads inherits their
            // blocked signals, SIGTERM among them, and would run on.
            kill(process.processIdentifier, SIGKILL)
            return true
        }
        // Pipes hold 64 KB: the input is written and both outputs are read at once, off the server's
        // threads, so a command writing while it reads never waits on the server.
        async let written: Void = Self.blocking {
            try? inputPipe.fileHandleForWriting.write(contentsOf: input)
            try? inputPipe.fileHandleForWriting.close()
        }
        async let output = Self.blocking { Self.read(outputPipe.fileHandleForReading, upTo: outputLimit + 1) }
        async let errors = Self.blocking { Self.read(errorPipe.fileHandleForReading, upTo: 64 * 1024) }
        let (_, standardOutput, standardError) = await (written, output, errors)
        let status = await Self.blocking {
            process.waitUntilExit()
            return process.terminationStatus
        }
        watchdog.cancel()
        let timedOut = await watchdog.value && process.terminationReason == .uncaughtSignal
        guard status == 0 else {
            let detail = String(decoding: standardError, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw OutsideServiceError(
                service: service,
                reason: .unreadable(
                    (timedOut ? "stopped after \(timeout)" : "exit status \(status)")
                        + (detail.isEmpty ? "" : ": \(detail)")))
        }
        guard standardOutput.count <= outputLimit else {
            throw OutsideServiceError(service: service, reason: .tooLarge(limit: outputLimit))
        }
        return standardOutput
    }

    /// Reads to the end, keeping at most `limit` bytes (the rest is drained so the command can finish).
    private static func read(_ handle: FileHandle, upTo limit: Int) -> Data {
        var kept = Data()
        while let part = try? handle.read(upToCount: 64 * 1024), !part.isEmpty {
            if kept.count < limit { kept.append(part.prefix(limit - kept.count)) }
        }
        return kept
    }

    /// Runs blocking work on a dispatch thread rather than one of the few the server's tasks share.
    private static func blocking<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
