import Testing

@testable import CadenceCore

/// `String(decodingUTF8:)` cuts long buffers into pieces; it must always equal the standard
/// library's `String(decoding:as:)`, byte for byte, invalid input included.
@Suite("SSE UTF-8 decoding")
struct SSEUTF8DecodingTests {
    @Test("random mixes of ASCII runs, multi-byte characters and invalid bytes", arguments: 0..<200)
    func matchesStandardLibrary(seed: UInt64) {
        var random = SSESeededGenerator(state: seed)
        let pieces: [[UInt8]] = [
            Array(String(repeating: "ascii text ", count: 5).utf8), Array("é".utf8), Array("“".utf8),
            Array("😀".utf8), [0xFF], [0xE2, 0x82], [0xF0, 0x9F], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80],
            Array("x".utf8), Array(String(repeating: "y", count: 40).utf8),
            Array(String(repeating: "a long ASCII run ", count: 20).utf8),  // long enough for a piece of its own
        ]
        var bytes: [UInt8] = []
        let target = Int.random(in: 0..<3000, using: &random)
        while bytes.count < target { bytes += pieces.randomElement(using: &random)! }
        bytes.withUnsafeBufferPointer { buffer in
            let fast = String(decodingUTF8: buffer)
            let reference = String(decoding: buffer, as: UTF8.self)
            #expect(Array(fast.utf8) == Array(reference.utf8), "seed \(seed), \(bytes.count) bytes")
        }
    }

    @Test(
        "a non-ASCII byte at the very start, middle or end of a long buffer",
        arguments: [0, 1, 7, 8, 31, 32, 33, 255, 256, 511, 1000, 1021, 1022, 1023]
    )
    func oneNonASCIIByte(at position: Int) {
        for insert in [[0xC3, 0xA9], [0xE2], [0xFF]] as [[UInt8]] {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1024)
            bytes.replaceSubrange(position..<min(position + insert.count, bytes.count), with: insert)
            bytes.withUnsafeBufferPointer { buffer in
                #expect(Array(String(decodingUTF8: buffer).utf8) == Array(String(decoding: buffer, as: UTF8.self).utf8))
            }
        }
    }
}
