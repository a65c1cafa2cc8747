import Foundation

/// Deflate (RFC 1951) decoding: stored, fixed and dynamic Huffman blocks. Enough for gzip members of
/// files others write (PMTiles directories); slow-ish and simple: a code is read bit by bit through the
/// canonical counts, as zlib's `puff` does.
enum Inflate {
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private struct Bits {
        let bytes: [UInt8]
        var position: Int
        var buffer = 0
        var count = 0

        mutating func take(_ wanted: Int) throws(Failure) -> Int {
            while count < wanted {
                guard position < bytes.count else { throw Failure(description: "deflate data cut short") }
                buffer |= Int(bytes[position]) << count
                position += 1
                count += 8
            }
            let value = buffer & ((1 << wanted) - 1)
            buffer >>= wanted
            count -= wanted
            return value
        }

        /// Drops the bits left of the current byte (before a stored block).
        mutating func align() {
            buffer = 0
            count = 0
        }
    }

    /// A canonical Huffman code: how many codes each length has, and the symbols in code order.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) throws(Failure) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
            counts[0] = 0
        }

        func decode(_ bits: inout Bits) throws(Failure) -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                code |= try bits.take(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Failure(description: "deflate data holds a code no table has")
        }
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The data of the deflate stream starting at `start`, and where it ends (the next whole byte).
    static func decompress(_ input: [UInt8], from start: Int) throws(Failure) -> (output: [UInt8], end: Int) {
        var bits = Bits(bytes: input, position: start)
        var output: [UInt8] = []
        var isLast = false
        while !isLast {
            isLast = try bits.take(1) == 1
            switch try bits.take(2) {
            case 0:
                bits.align()
                guard bits.position + 4 <= input.count else { throw Failure(description: "deflate data cut short") }
                let length = Int(input[bits.position]) | Int(input[bits.position + 1]) << 8
                let check = Int(input[bits.position + 2]) | Int(input[bits.position + 3]) << 8
                guard length == ~check & 0xFFFF else { throw Failure(description: "a stored deflate block is damaged") }
                bits.position += 4
                guard bits.position + length <= input.count else {
                    throw Failure(description: "deflate data cut short")
                }
                output.append(contentsOf: input[bits.position..<(bits.position + length)])
                bits.position += length
            case 1:
                let (literals, distances) = try fixedTables()
                try inflate(&bits, into: &output, literals: literals, distances: distances)
            case 2:
                let (literals, distances) = try dynamicTables(&bits)
                try inflate(&bits, into: &output, literals: literals, distances: distances)
            default:
                throw Failure(description: "deflate data holds a block of the reserved type")
            }
        }
        return (output, bits.position)
    }

    /// The tables of a fixed-Huffman block (RFC 1951, 3.2.6).
    private static func fixedTables() throws(Failure) -> (Huffman, Huffman) {
        let literals =
            [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
            + [Int](repeating: 8, count: 8)
        return (try Huffman(lengths: literals), try Huffman(lengths: [Int](repeating: 5, count: 30)))
    }

    private static func dynamicTables(_ bits: inout Bits) throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try bits.take(5) + 257
        let distanceCount = try bits.take(5) + 1
        let codeLengthCount = try bits.take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw Failure(description: "a deflate block's tables are too long")
        }
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = try bits.take(3) }
        let codeLengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&bits)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure(description: "a deflate table repeats nothing") }
                lengths += [Int](repeating: previous, count: 3 + (try bits.take(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits.take(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits.take(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else {
            throw Failure(description: "a deflate block's tables overrun")
        }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount])),
            try Huffman(lengths: Array(lengths[literalCount...]))
        )
    }

    private static func inflate(
        _ bits: inout Bits, into output: inout [UInt8], literals: Huffman, distances: Huffman
    ) throws(Failure) {
        while true {
            let symbol = try literals.decode(&bits)
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count else { throw Failure(description: "deflate data holds a bad length") }
            let length = lengthBase[lengthIndex] + (try bits.take(lengthExtra[lengthIndex]))
            let distanceIndex = try distances.decode(&bits)
            guard distanceIndex < distanceBase.count else {
                throw Failure(description: "deflate data holds a bad distance")
            }
            let distance = distanceBase[distanceIndex] + (try bits.take(distanceExtra[distanceIndex]))
            guard distance <= output.count else { throw Failure(description: "deflate data reaches before its start") }
            let from = output.count - distance
            for offset in 0..<length { output.append(output[from + offset]) }
        }
    }
}
