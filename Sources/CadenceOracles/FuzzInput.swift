import CadenceCore

/// One fuzz input, read as a two-byte header and a payload.
///
/// The first byte chooses options (a limit, a dialect, a pacing mode: each oracle says what it
/// means); the second seeds the chunk boundaries. An input shorter than the header is all header,
/// with an empty payload. Seeds made from real streams get a header prepended (`Fuzz/run.sh` writes
/// two zero bytes), so the fuzzer starts from the real payloads and mutates boundaries by mutating
/// one byte.
///
/// ```swift
/// let input = FuzzInput(Array("\u{1}\u{7}data: hi\n\n".utf8))
/// input.options                      // 1
/// input.chunks(of: input.payload)    // the payload cut where seed 7 says
/// ```
public struct FuzzInput: Sendable {
    /// The byte that chooses options.
    public let options: UInt8
    /// The byte that seeds the chunk boundaries.
    public let splitSeed: UInt8
    /// Everything after the header.
    public let payload: [UInt8]

    public init(_ data: [UInt8]) {
        options = data.first ?? 0
        splitSeed = data.count > 1 ? data[1] : 0
        payload = Array(data.dropFirst(2))
    }

    /// The lengths of consecutive chunks covering `count` elements, all at least 1.
    ///
    /// The low three bits of the seed choose the largest chunk (1, 2, 3, 4, 8, 16, 64 or 256
    /// elements), and the seed drives a generator for the lengths up to it, so that one-element
    /// chunks, a split inside every CRLF and a few large chunks are all among the plans tried.
    public func chunkLengths(total count: Int) -> [Int] {
        let largest = [1, 2, 3, 4, 8, 16, 64, 256][Int(splitSeed & 7)]
        var random = SplitMix64(seed: UInt64(splitSeed))
        var lengths: [Int] = []
        var covered = 0
        while covered < count {
            let length = min(count - covered, 1 + Int(random.next() % UInt64(largest)))
            lengths.append(length)
            covered += length
        }
        return lengths
    }

    /// `elements` cut into the chunks of ``chunkLengths(total:)``.
    public func chunks<C: Collection>(of elements: C) -> [C.SubSequence] {
        var chunks: [C.SubSequence] = []
        var start = elements.startIndex
        for length in chunkLengths(total: elements.count) {
            let end = elements.index(start, offsetBy: length)
            chunks.append(elements[start..<end])
            start = end
        }
        return chunks
    }

    /// The payload as text, with invalid UTF-8 replaced by U+FFFD.
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
