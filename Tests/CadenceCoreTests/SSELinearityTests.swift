import Testing

@testable import CadenceCore

/// The corpus's generated performance guards: one 8 MiB line in small chunks, 10,000 events
/// in one chunk. Each is decoded at its own chunking, and at half its size to check that the
/// work per byte stays the same (quadratic re-scanning would double it). Work is counted by
/// the decoder in debug builds; nothing here reads a clock.
@Suite("SSE generated cases")
struct SSELinearityTests {
    @Test("generated cases decode at their own chunking", arguments: try generatedCases())
    func generated(_ testCase: SSEConformanceCase) throws {
        let generator = try #require(testCase.generator)
        let bytes = generator.bytes()
        var decoder = SSEDecoder()
        let decoding = decoder.decode(bytes, generator.chunkingToUse)
        #expect(decoding.error == nil)
        let expected = testCase.expectedEvents(testCase.expected)
        #expect(decoding.events.count == expected.count)
        #expect(zip(decoding.events, expected).allSatisfy { $0 == $1 })
        #expect(decoder.lastEventID == testCase.lastEventId)
        #expect(decoder.reconnectionTime == testCase.expectedRetry)
    }

    #if DEBUG
    @Test("generated cases cost linear work", arguments: try generatedCases())
    func linear(_ testCase: SSEConformanceCase) throws {
        let generator = try #require(testCase.generator)
        let full = workPerByte(generator, scale: 1)
        let half = workPerByte(generator, scale: 2)
        let quarter = workPerByte(generator, scale: 4)
        // Each byte is scanned for CR and for LF, copied at most once or twice, and decoded once.
        #expect(full < 6)
        #expect(full / quarter < 1.1 && half / quarter < 1.1, "work per byte: \(quarter), \(half), \(full)")
        print(testCase.name, quarter, half, full)
    }

    private func workPerByte(_ generator: SSEConformanceCase.Generator, scale: Int) -> Double {
        let bytes = generator.bytes(scale: scale)
        var decoder = SSEDecoder()
        _ = decoder.decode(bytes, generator.chunkingToUse)
        return Double(decoder.work) / Double(bytes.count)
    }
    #endif

    #if DEBUG
    @Test("the work counter counts every byte scanned, copied and decoded")
    func workCounterCountsEveryByte() {
        var decoder = SSEDecoder()
        _ = decoder.decode(Array("event: \(String(repeating: "x", count: 1000))\n\n".utf8), .size(1))
        // Scanned for CR and LF, held byte by byte, then interpreted: at least three passes.
        #expect(decoder.work >= 3 * 1000)
        #expect(decoder.work < 6 * 1009)
    }
    #endif

    static func generatedCases() throws -> [SSEConformanceCase] {
        try SSEConformanceCorpus.cases(ofKind: "parse").filter { $0.generator != nil }
    }
}

extension SSEConformanceCase.Generator {
    /// The stream's bytes; `scale` divides every count, to build a smaller stream of the same shape.
    func bytes(scale: Int = 1) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in parts {
            for text in part.expanded(scale: scale) { bytes += text.utf8 }
        }
        return bytes
    }

    var chunkingToUse: SSEChunking {
        if let chunkSize { return .size(chunkSize) }
        if let splitAt { return .splits(splitAt) }
        return .whole  // "chunking": "one"
    }
}
