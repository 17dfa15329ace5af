import Testing

@testable import CadenceCore

/// `String(decodingUTF8:)` validates in bulk (``UTF8Validation``) and copies valid text into the
/// string without the standard library's second look; it must always equal the standard library's
/// `String(decoding:as:)`, byte for byte, invalid input included, and repair as WHATWG says.
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

    @Test("invalid sequences become U+FFFD as WHATWG says, one per maximal subpart", arguments: whatwgCases)
    func whatwgReplacement(bytes: [UInt8], expected: String) {
        for padding in [0, 5, 13, 29] {  // the sequence at different places in the words the validator reads
            let padded = [UInt8](repeating: UInt8(ascii: "a"), count: padding) + bytes + Array("z".utf8)
            let text = padded.withUnsafeBufferPointer { String(decodingUTF8: $0) }
            #expect(text == String(repeating: "a", count: padding) + expected + "z", "after \(padding) bytes")
            // Cut by the end of the buffer, as at the end of a field.
            let cut = Array(padded.dropLast())
            #expect(cut.withUnsafeBufferPointer { String(decodingUTF8: $0) } == String(decoding: cut, as: UTF8.self))
        }
    }

    static let whatwgCases: [([UInt8], String)] = [
        ([0xC3, 0xA9], "é"), ([0xE2, 0x82, 0xAC], "€"), ([0xF0, 0x9F, 0x98, 0x80], "😀"),
        ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}"), ([0xEE, 0x80, 0x80], "\u{E000}"), ([0xED, 0x9F, 0xBF], "\u{D7FF}"),
        ([0x80], "\u{FFFD}"), ([0xBF, 0x80], "\u{FFFD}\u{FFFD}"),  // lone continuation bytes
        ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"), ([0xC1, 0xBF], "\u{FFFD}\u{FFFD}"),  // overlong two-byte forms
        ([0xE0, 0x80, 0xAF], "\u{FFFD}\u{FFFD}\u{FFFD}"), ([0xE0, 0x9F, 0xBF], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xF0, 0x80, 0x80, 0xAF], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),  // overlong four-byte form
        // Surrogates, and past U+10FFFF.
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"), ([0xED, 0xBF, 0xBF], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"), ([0xF5, 0x80], "\u{FFFD}\u{FFFD}"),
        ([0xFE], "\u{FFFD}"), ([0xFF, 0xFF], "\u{FFFD}\u{FFFD}"),
        ([0xE2, 0x82], "\u{FFFD}"), ([0xF0, 0x9F, 0x98], "\u{FFFD}"), ([0xC3], "\u{FFFD}"),  // truncated: one each
        ([0xE2, 0x82, 0x41], "\u{FFFD}A"), ([0xF0, 0x9F, 0xC3, 0xA9], "\u{FFFD}é"),
        ([0xE2, 0xE2, 0x82, 0xAC], "\u{FFFD}€"),
    ]

    @Test("the validator agrees with the standard library on every one- and two-byte sequence")
    func everyShortSequence() {
        for first in 0...255 {
            check([UInt8(first)])
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
        }
    }

    @Test("the validator agrees with the standard library on three- and four-byte sequences", arguments: 0xC0...0xFF)
    func longSequences(lead: Int) {
        // Validity turns only at these values of a byte after the lead.
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC3, 0xE2, 0xF0, 0xFF]
        for second in 0...255 {
            for third in edges { check([UInt8(lead), UInt8(second), third]) }
        }
        for second in edges {
            for third in edges {
                for fourth in edges { check([UInt8(lead), second, third, fourth]) }
            }
        }
    }

    @Test("a character split by a chunk boundary is decoded whole, at every chunk size", arguments: 1...9)
    func splitAcrossChunks(chunkSize: Int) {
        let text = "é€😀 and \u{10FFFF}, “quoted” décodé"
        var stream: [UInt8] = []
        var expected: [SSEEvent] = []
        for start in 0..<8 {  // every alignment of the characters to the chunks
            stream += Array("data: \(String(repeating: "x", count: start))\(text)\n\n".utf8)
            expected.append(SSEEvent(data: String(repeating: "x", count: start) + text))
        }
        stream += Array("data: cut \u{20AC}".utf8).dropLast() + Array("\n\n".utf8)  // truncated at the field's end
        expected.append(SSEEvent(data: "cut \u{FFFD}"))
        var strings = SSEDecoder()
        var borrowed = SSEDecoder()
        #expect(strings.decode(stream, .size(chunkSize)).events == expected)
        #expect(borrowed.decodeIntoBatch(stream, .size(chunkSize)).events == expected)
    }

    /// Checks ``UTF8Validation`` and `String(decodingUTF8:)` on `sequence` against the standard
    /// library, alone and at every position in a run of ASCII that crosses the validator's words.
    private func check(_ sequence: [UInt8]) {
        for padding in sequence.count == 1 ? [0, 7, 15] : [0, 9] {
            let bytes = [UInt8](repeating: 0x20, count: padding) + sequence + [0x20]
            for candidate in [sequence, bytes] {
                let reference = String(validating: candidate, as: UTF8.self)
                let isASCII = candidate.allSatisfy { $0 < 0x80 }
                let expected: UTF8Validation = reference == nil ? .invalid : isASCII ? .ascii : .valid
                let checked = candidate.withUnsafeBufferPointer { UTF8Validation.check($0) }
                guard checked == expected else {
                    Issue.record("\(candidate.map { String($0, radix: 16) }): \(checked), expected \(expected)")
                    return
                }
                if checked == .invalid {  // only the invalid go through repair
                    let text = candidate.withUnsafeBufferPointer { String(decodingUTF8: $0) }
                    #expect(Array(text.utf8) == Array(String(decoding: candidate, as: UTF8.self).utf8))
                }
            }
        }
    }
}
