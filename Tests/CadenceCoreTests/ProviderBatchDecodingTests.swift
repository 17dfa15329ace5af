import CadenceCore
import CadenceOracles
import Testing

/// The dialect decoders read an ``SSEBatch`` event's JSON from its bytes: on every SSE capture of
/// `../shared/fixtures/providers/`, at every chunk size, they give exactly the events they give for
/// the matching ``SSEEvent``'s `String`.
struct ProviderBatchDecodingTests {
    static let sseFixtures = ProviderFixture.all.filter { !$0.dialect.usesLineFraming }

    @Test(arguments: sseFixtures, ProviderFixtureTests.chunkSizes)
    func borrowedBytesDecodeLikeStrings(fixture: ProviderFixture, chunkSize: Int) throws {
        var strings = try #require(fixture.dialect.makeSSEDialectDecoder())
        var borrowed = try #require(fixture.dialect.makeSSEDialectDecoder())
        var stringDecoder = SSEDecoder()
        var batchDecoder = SSEDecoder()
        var batch = SSEBatch()
        var expected: [ModelEvent] = []
        var events: [ModelEvent] = []
        var start = 0
        while start < fixture.bytes.count {
            let chunk = fixture.bytes[start..<start + min(chunkSize, fixture.bytes.count - start)]
            for case .event(let event) in try stringDecoder.feed(chunk) { expected += strings.decode(event) }
            try batchDecoder.feed(chunk, into: &batch)
            for case .event(let event) in batch { events += borrowed.decode(event) }
            batch.removeAll()
            start += chunk.count
        }
        expected += strings.finish()
        events += borrowed.finish()
        #expect(!events.isEmpty)
        #expect(events == expected)
    }

    @Test("bad payloads give the same errors from bytes as from strings", arguments: ModelDialect.allCases)
    func badPayloads(dialect: ModelDialect) throws {
        guard dialect.makeSSEDialectDecoder() != nil else { return }
        let payloads: [[UInt8]] = [
            Array("{\"choices\":".utf8), Array("[DONE] x".utf8), Array(" \t[DONE]\r\n".utf8), Array("\r\n".utf8),
            Array("{\"a\":\"\u{E9}".utf8) + [0xFF] + Array("\"}".utf8), Array("{\"a\":1}".utf8) + [0xE2, 0x82],
            [0xC0, 0xAF] + Array("{}".utf8), Array("{\"error\":{\"message\":\"d\u{E9}j\u{E0}\"}}".utf8),
            Array("7".utf8),
            Array("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}".utf8),
        ]
        for payload in payloads {
            var stream = [UInt8]()
            for line in payload.split(separator: 0x0A, omittingEmptySubsequences: false) {
                stream += Array("data: ".utf8) + line + [0x0A]
            }
            stream += [0x0A]
            var sse = SSEDecoder()
            var batch = SSEBatch()
            try sse.feed(stream, into: &batch)
            guard case .event(let event) = batch.first else {
                Issue.record("no event for \(payload)")
                continue
            }
            var strings = try #require(dialect.makeSSEDialectDecoder())
            var borrowed = try #require(dialect.makeSSEDialectDecoder())
            #expect(borrowed.decode(event) == strings.decode(SSEEvent(event)), "\(payload)")
            #expect(borrowed.finish() == strings.finish())
        }
    }
}
