import Foundation

/// A landscape painted from a few shapes (sky, sun, ridges, water): pictures the sample data can give its
/// people without shipping photographs, each a real PNG like any a person uploads.
public enum PaintedLandscape: String, CaseIterable, Sendable {
    case mountains
    case sunsetSea
    case forestLake

    /// The picture as a PNG of `size` × `size` pixels.
    public func png(size: Int = 192) throws -> [UInt8] {
        var rgb = [UInt8]()
        rgb.reserveCapacity(size * size * 3)
        let scene = Scene(self)
        for row in 0..<size {
            for column in 0..<size {
                let colour = scene.colour(
                    x: (Double(column) + 0.5) / Double(size), y: (Double(row) + 0.5) / Double(size))
                rgb += [colour.red, colour.green, colour.blue].map { UInt8(max(0, min(255, $0 * 255)).rounded()) }
            }
        }
        return try PNG.encoded(width: size, height: size, rgb: rgb)
    }
}

private struct Colour {
    var red: Double
    var green: Double
    var blue: Double

    init(_ hex: UInt32) {
        red = Double(hex >> 16 & 0xFF) / 255
        green = Double(hex >> 8 & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
    }

    init(red: Double, green: Double, blue: Double) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    func mixed(with other: Colour, _ share: Double) -> Colour {
        let share = max(0, min(1, share))
        return Colour(
            red: red + (other.red - red) * share, green: green + (other.green - green) * share,
            blue: blue + (other.blue - blue) * share)
    }
}

/// A line of hills or peaks, its crest a sum of waves; everything below the crest is its colour.
private struct Ridge {
    let base: Double
    let height: Double
    let waves: Double
    let phase: Double
    let colour: Colour
    /// Peaks above this share of the ridge's height are white.
    var snowAbove: Double?
    /// Pointed tops (trees) instead of rounded ones.
    var isJagged = false

    func crest(at x: Double) -> Double {
        let wave =
            isJagged
            ? abs((x * waves * 6 + phase).truncatingRemainder(dividingBy: 1) - 0.5) * 2
            : 0.6 * abs(sin(x * waves * .pi + phase)) + 0.4 * (0.5 + 0.5 * sin(x * waves * 2.3 * .pi + phase * 1.7))
        return base - height * wave
    }
}

private struct Scene {
    let skyTop: Colour
    let horizon: Colour
    let sun: (x: Double, y: Double, radius: Double, colour: Colour)
    let ridges: [Ridge]
    /// Where water begins, reflecting what is above it; nil for dry land to the bottom.
    let waterLine: Double?
    let water: Colour
    /// A shore across the bottom (sand, grass), below this line.
    let shore: (line: Double, colour: Colour)?

    init(_ landscape: PaintedLandscape) {
        switch landscape {
        case .mountains:
            skyTop = Colour(0x3B7DD8)
            horizon = Colour(0xCFE6F7)
            sun = (0.78, 0.2, 0.07, Colour(0xFFF6D5))
            ridges = [
                Ridge(base: 0.62, height: 0.42, waves: 2.2, phase: 0.4, colour: Colour(0x7D8FA8), snowAbove: 0.72),
                Ridge(base: 0.74, height: 0.22, waves: 3.1, phase: 1.9, colour: Colour(0x4F6B5A)),
                Ridge(base: 0.92, height: 0.14, waves: 1.6, phase: 0.8, colour: Colour(0x3F7F3A)),
            ]
            waterLine = nil
            water = Colour(0x000000)
            shore = nil
        case .sunsetSea:
            skyTop = Colour(0x5B3A8C)
            horizon = Colour(0xFF9E5E)
            sun = (0.5, 0.55, 0.13, Colour(0xFFE07A))
            ridges = [Ridge(base: 0.6, height: 0.08, waves: 1.2, phase: 2.6, colour: Colour(0x6B4A7A))]
            waterLine = 0.6
            water = Colour(0x2E4F8A)
            shore = (0.86, Colour(0xE8C98E))
        case .forestLake:
            skyTop = Colour(0x8FC1E3)
            horizon = Colour(0xEAF2F0)
            sun = (0.22, 0.16, 0.06, Colour(0xFFFBEA))
            ridges = [
                Ridge(base: 0.5, height: 0.16, waves: 1.4, phase: 0.3, colour: Colour(0x8AA6A0)),
                Ridge(base: 0.56, height: 0.12, waves: 3.2, phase: 0.0, colour: Colour(0x2F5D3A), isJagged: true),
            ]
            waterLine = 0.56
            water = Colour(0x3D6E7E)
            shore = (0.9, Colour(0x5E8C4A))
        }
    }

    func colour(x: Double, y: Double) -> Colour {
        if let shore, y > shore.line - 0.02 * sin(x * 7) {
            return shore.colour.mixed(with: Colour(0x000000), (y - shore.line) * 0.8)
        }
        if let waterLine, y > waterLine {
            // The water mirrors the land and sky above its line, rippled and tinted.
            let mirrored = 2 * waterLine - y
            let ripple = 0.012 * sin(y * 140) * (y - waterLine) * 4
            return land(x: x + ripple, y: mirrored).mixed(with: water, 0.45 + (y - waterLine))
        }
        return land(x: x, y: y)
    }

    private func land(x: Double, y: Double) -> Colour {
        for ridge in ridges.reversed() {
            let depth = y - ridge.crest(at: x)
            guard depth >= 0 else { continue }
            if let snow = ridge.snowAbove, y < ridge.base - ridge.height * snow {
                return Colour(0xF4F7FB).mixed(with: ridge.colour, depth * 3)
            }
            return ridge.colour.mixed(with: Colour(0x000000), depth * 0.6)
        }
        let sky = skyTop.mixed(with: horizon, y / max(ridges.first?.base ?? 1, 0.01))
        let distance = hypot(x - sun.x, y - sun.y)
        if distance < sun.radius { return sun.colour }
        return sky.mixed(with: sun.colour, 0.5 * (1 - (distance - sun.radius) / (sun.radius * 1.5)))
    }
}
