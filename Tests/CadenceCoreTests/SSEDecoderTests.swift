import CadenceCore
import CadenceOracles
import Testing

/// Behaviour beyond the shared corpus: chunking edge cases, items, reconnection, the API.
@Suite("SSEDecoder")
struct SSEDecoderTests {
    @Test(
        "a CRLF split between chunks inside an event ends one line, not two",
        arguments: SSEChunking.standard(splits: [8, 9]))
    func crlfSplitInsideEvent(_ chunking: SSEChunking) {
        var decoder = SSEDecoder()
        let decoding = decoder.decode(Array("data: a\r\ndata: b\r\n\r\n".utf8), chunking)
        #expect(decoding.events == [SSEEvent(data: "a\nb")])
    }

    @Test(
        "a byte order mark is skipped only when complete, at the start",
        arguments: [
            ([0xEF, 0xBB, 0xBF] + Array(":x\n".utf8), [SSEItem.comment("x")]),
            ([0xEF] + Array(":x\n".utf8), []),  // the lone 0xEF starts the field name
            ([0xEF, 0xBB] + Array(":x\n".utf8), []),
            ([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(":x\n".utf8), []),
            ([0xEF, 0xBB, 0xBF] + Array("data: \u{FEFF}\n\n".utf8), [.event(SSEEvent(data: "\u{FEFF}"))]),
        ] as [([UInt8], [SSEItem])]
    )
    func byteOrderMark(_ bytes: [UInt8], _ expected: [SSEItem]) {
        for chunking in SSEChunking.standard(splits: [1, 2, 3]) {
            var decoder = SSEDecoder()
            #expect(decoder.decode(bytes, chunking).items == expected, "\(chunking)")
        }
    }

    @Test("comments, retries and events come out in stream order")
    func itemsInOrder() throws {
        var decoder = SSEDecoder()
        let stream = ": keepalive\n:  two spaces\n:\nretry: 10\ndata: a\nretry: x\nretry: 20\n: flush-tokens\n\n"
        let items = try decoder.feed(Array(stream.utf8))
        #expect(
            items == [
                .comment("keepalive"), .comment(" two spaces"), .comment(""), .retry(10), .retry(20),
                .comment("flush-tokens"), .event(SSEEvent(data: "a")),
            ])
        #expect(decoder.reconnectionTime == 20)
    }

    @Test("the last event ID changes only when a block ends, and survives finish()")
    func lastEventIDAtDispatch() throws {
        var decoder = SSEDecoder()
        _ = try decoder.feed(Array("id: 1\ndata: a\n\nid: 2\n".utf8))
        #expect(decoder.lastEventID == "1")
        _ = try decoder.finish()  // the body ended before "id: 2" was dispatched
        #expect(decoder.lastEventID == "1")
        #expect(try decoder.feed(Array("data: b\n\n".utf8)) == [.event(SSEEvent(data: "b", id: "1"))])
    }

    @Test("a decoder created with a last event ID reports it until a new id arrives")
    func resumedLastEventID() throws {
        var decoder = SSEDecoder(lastEventID: "41")
        let items = try decoder.feed(Array("data: a\n\nid: 42\ndata: b\n\n".utf8))
        #expect(items == [.event(SSEEvent(data: "a", id: "41")), .event(SSEEvent(data: "b", id: "42"))])
    }

    @Test("finish() drops an unfinished event; the next body starts clean")
    func finishDropsPartialEvent() throws {
        var decoder = SSEDecoder()
        #expect(try decoder.feed(Array("event: x\ndata: partial\ndata: long".utf8)).isEmpty)
        #expect(try decoder.finish().isEmpty)
        #expect(try decoder.feed(Array("\u{FEFF}data: next\n\n".utf8)) == [.event(SSEEvent(data: "next"))])
    }

    @Test("non-contiguous collections and raw buffers decode the same as arrays")
    func inputKinds() throws {
        let bytes = Array("event: e\ndata: 1\n\n: c\ndata: 2\n\n".utf8)
        var expectedDecoder = SSEDecoder()
        let expected = try expectedDecoder.feed(bytes)
        #expect(expected.count == 3)

        var lazyDecoder = SSEDecoder()
        #expect(try lazyDecoder.feed(bytes.lazy.map { $0 }) == expected)

        var rawDecoder = SSEDecoder()
        var items: [SSEItem] = [.comment("kept")]
        try bytes.withUnsafeBytes { try rawDecoder.feed($0, into: &items) }
        #expect(items == [.comment("kept")] + expected)
    }

    @Test("data lines of every length up to 200 bytes, with each line ending", arguments: ["\n", "\r", "\r\n"])
    func everyLineLength(ending: String) {
        var stream = ""
        var expected: [SSEEvent] = []
        for length in 0...200 {
            let value = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            stream += "data: \(value)\(ending)data:\(value)\(ending)\(ending)"
            expected.append(SSEEvent(data: value + "\n" + value))
        }
        for chunking in [SSEChunking.whole, .size(1), .size(7), .size(64), .size(100), .size(4096)] {
            var decoder = SSEDecoder()
            #expect(decoder.decode(Array(stream.utf8), chunking).events == expected, "\(chunking)")
        }
    }

    @Test("random streams decode like the reference algorithm, at any chunking", arguments: 0..<150)
    func matchesReference(seed: UInt64) {
        var random = SSESeededGenerator(state: seed)
        let bytes = random.stream(lines: Int(seed % 40) + 1)
        let reference = SSEReferenceDecoder(bytes)
        let randomSplits = (0..<3).map { _ in Int.random(in: 0...bytes.count, using: &random) }
        for chunking in SSEChunking.standard(splits: []) + [.size(13), .splits(randomSplits)] {
            var decoder = SSEDecoder()
            let decoding = decoder.decode(bytes, chunking)
            #expect(decoding.items == reference.items, "seed \(seed), \(chunking)")
            #expect(decoder.lastEventID == reference.lastEventID, "seed \(seed), \(chunking)")
            #expect(decoder.reconnectionTime == reference.reconnectionTime, "seed \(seed), \(chunking)")
        }
    }
}
