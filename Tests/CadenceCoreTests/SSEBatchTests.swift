import CadenceCore
import CadenceOracles
import Testing

/// `feed(_:into:)` with an ``SSEBatch`` gives exactly the items of `feed(_:) -> [SSEItem]`, at every
/// chunking, with each event's data kept as the bytes that arrived.
@Suite("SSE batches")
struct SSEBatchTests {
    @Test(
        "the conformance corpus, whole, in 1…8-byte chunks and at each critical split",
        arguments: try SSEConformanceTests.parseCases())
    func conformance(_ testCase: SSEConformanceCase) throws {
        let bytes = try testCase.bytes()
        for chunking in SSEChunking.standard(splits: (testCase.criticalSplits ?? []) + (testCase.splitAt ?? [])) {
            var strings = SSEDecoder()
            var borrowed = SSEDecoder()
            let expected = strings.decode(bytes, chunking)
            let decoding = borrowed.decodeIntoBatch(bytes, chunking)
            #expect(decoding.error == nil, "\(chunking)")
            #expect(decoding.items == expected.items, "\(chunking)")
            #expect(decoding.events == testCase.expectedEvents(testCase.expected), "\(chunking)")
            #expect(borrowed.lastEventID == testCase.lastEventId, "\(chunking)")
            #expect(borrowed.reconnectionTime == testCase.expectedRetry, "\(chunking)")
        }
    }

    @Test(
        "the corpus's reconnections: one decoder across connections",
        arguments: try SSEConformanceTests.reconnectCases())
    func reconnect(_ testCase: SSEConformanceCase) throws {
        for chunking in SSEChunking.standard(splits: []) {
            var decoder = SSEDecoder()
            var events: [SSEEvent] = []
            for connection in try #require(testCase.connections) {
                events += decoder.decodeIntoBatch(Array(connection.stream.utf8), chunking).events
            }
            #expect(events == testCase.expectedEvents(testCase.expected), "\(chunking)")
            #expect(decoder.lastEventID == testCase.lastEventId, "\(chunking)")
        }
    }

    @Test("random streams, invalid UTF-8 included, decode like the reference at any chunking", arguments: 0..<100)
    func random(seed: UInt64) {
        var random = SSESeededGenerator(state: seed)
        let bytes = random.stream(lines: Int(seed % 40) + 1)
        let reference = SSEReferenceDecoder(bytes)
        for chunking in SSEChunking.standard(splits: []) + [.size(13), .size(64)] {
            var decoder = SSEDecoder()
            let decoding = decoder.decodeIntoBatch(bytes, chunking)
            #expect(decoding.items == reference.items, "seed \(seed), \(chunking)")
            #expect(decoder.lastEventID == reference.lastEventID, "seed \(seed), \(chunking)")
        }
    }

    @Test("an event's bytes are its data as sent; its String repairs invalid UTF-8")
    func dataBytes() throws {
        var decoder = SSEDecoder()
        var batch = SSEBatch()
        try decoder.feed([0xEF, 0xBB, 0xBF] + Array("event: e\nid: 7\ndata: a\u{E9}".utf8), into: &batch)
        #expect(batch.isEmpty)
        try decoder.feed([0xFF, 0x0A] + Array("data: b\r\n\r\n: note\nretry: 5\n".utf8), into: &batch)
        try #require(batch.count == 3)
        guard case .event(let event) = batch[0] else {
            Issue.record("\(batch[0]) is not an event")
            return
        }
        #expect(Array(event.dataBytes) == Array("a\u{E9}".utf8) + [0xFF, 0x0A, UInt8(ascii: "b")])
        #expect(event.data == "a\u{E9}\u{FFFD}\nb")
        #expect(event.type == "e" && event.id == "7")
        #expect(SSEEvent(event) == SSEEvent(type: "e", data: "a\u{E9}\u{FFFD}\nb", id: "7"))
        #expect(batch[1] == .comment("note"))
        #expect(batch[2] == .retry(5))
    }

    /// Found by the random streams: an event's data line comes before the comment that follows it in
    /// its block, but the comment's item comes first, and the chunk was copied from the comment on.
    @Test("a block whose data line is followed by a comment and other fields, in one chunk")
    func commentAfterDataLine() throws {
        var decoder = SSEDecoder()
        var batch = SSEBatch()
        try decoder.feed(Array("data: first\n: note\nid: 7\nevent: e\nretry: 5\n\ndata: second\n\n".utf8), into: &batch)
        #expect(
            batch.map(SSEItem.init) == [
                .comment("note"), .retry(5), .event(SSEEvent(type: "e", data: "first", id: "7")),
                .event(SSEEvent(data: "second", id: "7")),
            ])
    }

    @Test("feeding appends, as into an array; removeAll() empties the batch for the next chunk")
    func appendsUntilRemoved() throws {
        var decoder = SSEDecoder()
        var batch = SSEBatch()
        try decoder.feed(Array("data: 1\n\n".utf8), into: &batch)
        try decoder.feed(Array("data: 2\n\n".utf8)[...], into: &batch)
        #expect(batch.map(SSEItem.init) == [.event(SSEEvent(data: "1")), .event(SSEEvent(data: "2"))])
        batch.removeAll()
        #expect(batch.isEmpty)
        try decoder.feed(Array("data: 3\n\n".utf8).lazy.map { $0 }, into: &batch)  // a non-contiguous collection
        #expect(batch.map(SSEItem.init) == [.event(SSEEvent(data: "3"))])
        // An event split by chunks is assembled by the decoder: copied into a batch that holds
        // something already, handed over whole to an empty one.
        try decoder.feed(Array("data: sp".utf8), into: &batch)
        try decoder.feed(Array("lit\n\ndata: again, sp".utf8), into: &batch)
        #expect(batch.map(SSEItem.init).last == .event(SSEEvent(data: "split")))
        batch.removeAll()
        try decoder.feed(Array("lit\ndata: x\n\n".utf8), into: &batch)
        #expect(batch.map(SSEItem.init) == [.event(SSEEvent(data: "again, split\nx"))])
    }

    @Test("an event kept past removeAll() keeps its bytes: the batch is a value")
    func keptEventsStayIntact() throws {
        var decoder = SSEDecoder()
        var batch = SSEBatch()
        try decoder.feed(Array("data: first\n\n".utf8), into: &batch)
        let kept = batch[0]
        let copy = batch
        batch.removeAll()
        try decoder.feed(Array("data: overwritten?\n\n".utf8), into: &batch)
        #expect(kept == SSEBatch.Event.decoding("first").map(SSEBatch.Item.event))
        #expect(copy.map(SSEItem.init) == [.event(SSEEvent(data: "first"))])
        #expect(batch.map(SSEItem.init) == [.event(SSEEvent(data: "overwritten?"))])
    }

    @Test("a limit error comes after the items before it, as into an array", arguments: SSELimitTests.chunkings)
    func limitError(_ chunking: SSEChunking) {
        let bytes = Array("data: ok\n\n: fine\ndata: 0123456789\ndata: 012345\n\ndata: after\n\n".utf8)
        var strings = SSEDecoder(limits: SSELimits(maxEventBytes: 16))
        var borrowed = SSEDecoder(limits: SSELimits(maxEventBytes: 16))
        let expected = strings.decode(bytes, chunking)
        let decoding = borrowed.decodeIntoBatch(bytes, chunking)
        #expect(decoding.items == [.event(SSEEvent(data: "ok")), .comment("fine")])
        #expect(decoding.items == expected.items)
        #expect(decoding.error?.code == .eventTooLarge)
        #expect(decoding.error?.code == expected.error?.code)
        var batch = SSEBatch()
        #expect(throws: SSEDecoderError.self) { try borrowed.feed(Array("data: x\n\n".utf8), into: &batch) }
        #expect(batch.isEmpty, "a failed decoder decodes nothing more")
    }
}

extension SSEBatch.Event {
    /// The event a batch holds for `data: text` alone.
    static func decoding(_ text: String) -> SSEBatch.Event? {
        var decoder = SSEDecoder()
        var batch = SSEBatch()
        try? decoder.feed(Array("data: \(text)\n\n".utf8), into: &batch)
        guard case .event(let event) = batch.first else { return nil }
        return event
    }
}
