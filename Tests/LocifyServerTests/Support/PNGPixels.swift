import Foundation

@testable import LocifyCore

/// The pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Locify and librsvg write), as RGBA, so
/// tests can look at what a picture shows rather than at its bytes.
struct PNGPixels {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int
    let height: Int
    /// Four bytes a pixel, row by row.
    let rgba: [UInt8]

    init(_ file: [UInt8]) throws {
        guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Unreadable(description: "not a PNG")
        }
        func word(_ at: Int) -> Int { file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var position = 8
        var header: [UInt8] = []
        var stream: [UInt8] = []
        while position + 12 <= file.count {
            let length = word(position)
            let type = String(decoding: file[(position + 4)..<(position + 8)], as: UTF8.self)
            let data = Array(file[(position + 8)..<(position + 8 + length)])
            if type == "IHDR" { header = data }
            if type == "IDAT" { stream += data }
            position += 12 + length
        }
        guard header.count == 13, header[8] == 8, header[12] == 0, [2, 6].contains(header[9]) else {
            throw Unreadable(description: "only 8-bit, non-interlaced RGB or RGBA is read here")
        }
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        let channels = header[9] == 6 ? 4 : 3
        let scanlines = try Inflate.decompress(stream, from: 2).output
        let rowLength = width * channels
        guard scanlines.count == height * (rowLength + 1) else { throw Unreadable(description: "short image data") }
        // Undo each row's filter (PNG §9): none, sub, up, average, Paeth.
        var rows = [UInt8](repeating: 0, count: height * rowLength)
        for row in 0..<height {
            let filter = scanlines[row * (rowLength + 1)]
            for index in 0..<rowLength {
                let raw = Int(scanlines[row * (rowLength + 1) + 1 + index])
                let left = index >= channels ? Int(rows[row * rowLength + index - channels]) : 0
                let up = row > 0 ? Int(rows[(row - 1) * rowLength + index]) : 0
                let upLeft = row > 0 && index >= channels ? Int(rows[(row - 1) * rowLength + index - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
                default: throw Unreadable(description: "filter \(filter)")
                }
                rows[row * rowLength + index] = UInt8((raw + predicted) & 0xFF)
            }
        }
        guard channels == 3 else {
            rgba = rows
            return
        }
        var opaque = [UInt8]()
        opaque.reserveCapacity(width * height * 4)
        for start in stride(from: 0, to: rows.count, by: 3) {
            opaque.append(contentsOf: rows[start..<start + 3])
            opaque.append(255)
        }
        rgba = opaque
    }

    /// The pixel at `x`, `y` as red, green, blue, alpha.
    func pixel(x: Int, y: Int) -> [UInt8] {
        Array(rgba[((y * width + x) * 4)..<((y * width + x) * 4 + 4)])
    }

    /// How many opaque pixels in the middle `fraction` of the picture are closer to `color` (`#rrggbb`)
    /// than to `other`: the letters' pixels, with `color` the letters' and `other` the disc's.
    func pixelsNearer(to color: String, than other: String, inMiddle fraction: Double = 0.6) -> Int {
        func components(_ hex: String) -> [Int] {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            return [value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF]
        }
        func distance(_ pixel: [UInt8], _ target: [Int]) -> Int {
            zip(pixel.prefix(3), target).map { (Int($0) - $1) * (Int($0) - $1) }.reduce(0, +)
        }
        let (near, far) = (components(color), components(other))
        let margin = Int(Double(width) * (1 - fraction) / 2)
        var count = 0
        for y in margin..<(height - margin) {
            for x in margin..<(width - margin) {
                let pixel = pixel(x: x, y: y)
                if pixel[3] > 200, distance(pixel, near) < distance(pixel, far) { count += 1 }
            }
        }
        return count
    }
}
