import Foundation
import LocifyCore

/// Turns an SVG drawing into a PNG of the drawing's own size, for clients that cannot draw SVG (Monica's
/// iOS app shows initials avatars through an image view that reads raster images only).
protocol SVGRasterizing: Sendable {
    func png(of svg: String) async throws -> [UInt8]
}

/// Used when no rasteriser is configured or found: every call fails, saying how to get one.
struct RasterizerOff: SVGRasterizing {
    func png(of svg: String) async throws -> [UInt8] {
        throw OutsideServiceError(
            service: "The avatar rasteriser (set LOCIFY_AVATAR_RASTERIZER)", reason: .notConfigured)
    }
}

/// Runs `command` (e.g. librsvg's `rsvg-convert`, whose Pango finds a font for every script the system
/// has) with the SVG on standard input; its standard output must be a PNG. At most `concurrency` run at
/// once, so a client opening a list of a hundred contacts does not start a hundred processes.
struct CommandRasterizer: SVGRasterizing {
    static let service = "The avatar rasteriser"

    let command: String
    private let gate: ProcessGate

    init(command: String, concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)) {
        self.command = command
        self.gate = ProcessGate(limit: concurrency)
    }

    func png(of svg: String) async throws -> [UInt8] {
        let output = try await gate.run {
            try await ShellCommand(
                command: command, service: Self.service, timeout: .seconds(10), outputLimit: 4_000_000
            )
            .run(input: Data(svg.utf8))
        }
        let bytes = [UInt8](output)
        guard ImageInfo(bytes)?.format == .png else {
            throw OutsideServiceError(service: Self.service, reason: .unreadable("its output is not a PNG"))
        }
        return bytes
    }
}

/// Lets at most `limit` pieces of work run at once; the rest wait their turn in order.
actor ProcessGate {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    func run<Value: Sendable>(_ work: @Sendable () async throws -> Value) async throws -> Value {
        if running < limit {
            running += 1
        } else {
            // The one finishing hands its place straight over, so `running` stays counted.
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
        }
        return try await work()
    }
}
