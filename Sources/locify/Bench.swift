import ArgumentParser
import Foundation
import LocifyBenchmarks

extension Locify {
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the Core's speed: gazetteer load, geocoding, address formats, recurrence.",
            discussion: "Build in release mode for meaningful numbers: swift run -c release locify bench")

        @Option(help: "Scale every loop by this factor (0.01 for a quick check).")
        var scale: Double = 1

        func validate() throws {
            guard scale > 0, scale <= 100 else { throw ValidationError("--scale must be above 0 and at most 100.") }
        }

        func run() throws {
            for measurement in CoreBenchmarks.run(scale: scale) {
                let value =
                    measurement.unit == "ms"
                    ? String(format: "%.0f", measurement.value)
                    : String(format: "%.0f", measurement.value)
                print(
                    "\(measurement.name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(value) \(measurement.unit)"
                )
            }
        }
    }
}
