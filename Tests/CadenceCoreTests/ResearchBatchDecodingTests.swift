import CadenceCore
import Testing

/// ``ResearchEventDecoder`` reads an ``SSEBatch`` event's JSON from its bytes: on a stream of every
/// event kind, with malformed events and comments among them, at every chunking, it gives exactly
/// the events (and errors) it gives for the matching ``SSEItem``s.
@Suite("Research events from SSE batches")
struct ResearchBatchDecodingTests {
    /// Every kind, framed as the server frames it, then events that fail to decode, comments, an
    /// id standing in for a missing sequence, and invalid UTF-8 inside and outside a JSON string.
    static let stream: [UInt8] = {
        var stream = ResearchProtocolTests.everyKind.enumerated().map { number, kind in
            ResearchEventEncoder.frame(ResearchEvent(sequence: kind == .flushTokens ? nil : number + 1, kind: kind))
        }.joined()
        stream += ": keepalive\n\nretry: 3000\n\n"
        stream += "event: token\nid: 77\ndata: {\"type\":\"token\",\"content\":\"no sequence\"}\n\n"
        stream += "event: token\ndata: {\"type\":\"token\"\n\n"  // invalid JSON
        stream += "data: [1,2]\n\ndata: {\"type\":\"token\",\"content\":5}\n\n"
        // Two data lines: their LF is a raw control character inside a JSON string.
        stream += "data: {\"type\":\"token\",\"content\":\"multi\ndata: line\"}\n\n"
        let invalidInString = Array("data: {\"type\":\"token\",\"content\":\"bad \u{E9}".utf8) + [0xFF, 0xE2, 0x82]
        let invalidAfterJSON = Array("data: {\"type\":\"token\",\"content\":\"x\"}".utf8) + [0xFF]
        return Array(stream.utf8) + invalidInString + Array("\"}\n\n".utf8) + invalidAfterJSON + Array("\n\n".utf8)
    }()

    @Test(arguments: SSEChunking.standard(splits: []))
    func borrowedBytesDecodeLikeStrings(chunking: SSEChunking) throws {
        var strings = SSEDecoder()
        var borrowed = SSEDecoder()
        var batch = SSEBatch()
        var expected: [Result<ResearchEvent?, ResearchDecodingError>] = []
        var decoded: [Result<ResearchEvent?, ResearchDecodingError>] = []
        for chunk in chunking.chunks(of: Self.stream) {
            for item in try strings.feed(chunk) {
                expected.append(Result { () throws(ResearchDecodingError) in try ResearchEventDecoder.decode(item) })
            }
            try borrowed.feed(chunk, into: &batch)
            for item in batch {
                decoded.append(Result { () throws(ResearchDecodingError) in try ResearchEventDecoder.decode(item) })
            }
            batch.removeAll()
        }
        #expect(decoded == expected)
        // The stream holds what it says: every kind decoded, then the failures.
        let events = decoded.compactMap { try? $0.get() }
        #expect(events.count == ResearchProtocolTests.everyKind.count + 2)
        #expect(events.contains(ResearchEvent(sequence: 77, kind: .token("no sequence"))))
        #expect(events.contains(ResearchEvent(sequence: 77, kind: .token("bad \u{E9}\u{FFFD}\u{FFFD}"))))
        #expect(decoded.filter { (try? $0.get()) == nil }.count == 7, "a comment, a retry and 5 failures")
    }
}
