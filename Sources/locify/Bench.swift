import ArgumentParser
import Foundation
import LocifyBenchmarks
import LocifyServer

extension Locify {
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Measure the Core's speed and the read path: geocoding, formats, JSON, row decoding.",
            discussion: "Build in release mode for meaningful numbers: swift run -c release locify bench")

        enum Suite: String, ExpressibleByArgument, CaseIterable {
            case all, core
            case readPath = "read-path"
        }

        @Option(help: "Scale every loop by this factor (0.01 for a quick check).")
        var scale: Double = 1

        @Option(help: "What to measure: all, core (geocoding, formats, maps) or read-path (JSON, row decoding).")
        var suite: Suite = .all

        func validate() throws {
            guard scale > 0, scale <= 100 else { throw ValidationError("--scale must be above 0 and at most 100.") }
        }

        func run() async throws {
            Output.bootstrapLogging(defaultLevel: .warning)
            if suite != .readPath {
                for measurement in CoreBenchmarks.run(scale: scale) {
                    print(line(measurement.name, measurement.value, measurement.unit))
                }
            }
            guard suite != .core else { return }
            let repetitions = max(1, Int(200 * scale))
            for measurement in try await ReadPathBenchmarks.run(count: 100, repetitions: repetitions) {
                print(line(measurement.name + " (100 a time)", measurement.value, measurement.unit, decimals: 2))
            }
        }

        private func line(_ name: String, _ value: Double, _ unit: String, decimals: Int = 0) -> String {
            "\(name.padding(toLength: 56, withPad: " ", startingAt: 0)) \(String(format: "%.\(decimals)f", value)) \(unit)"
        }
    }
}
