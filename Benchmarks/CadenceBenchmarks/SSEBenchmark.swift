import CadenceBenchmarkKit
import CadenceCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SSEDecoder throughput on synthetic streams of at least 50 MiB, fed in 4 KiB chunks, next to the
/// LF-scan ceiling on the same bytes: each event's data as a `String` (`[SSEItem]`) and borrowed
/// (`SSEBatch`), and the research events decoded from them.
enum SSEBenchmark {
    static let chunkSize = 4096
    /// 50 MiB, or `CADENCE_SSE_MIB` MiB: a few are enough to count instructions under callgrind,
    /// `CADENCE_SSE_MIB=5 valgrind --tool=callgrind --toggle-collect='*SSEBenchmarkO6decode*' …`,
    /// which counts the decoding only: the warm-up run and the 7 timed runs of each case.
    static let minimumBytes = (getenv("CADENCE_SSE_MIB").flatMap { Int(String(cString: $0)) } ?? 50) << 20

    /// How the chunks reach the decoder, and what is made of its events.
    enum Feeding {
        /// `feed(_:into:)` with a raw buffer, reusing one array of items: each event's data a `String`.
        case items
        /// `feed(_:) -> [SSEItem]` with an `ArraySlice`: the simplest way, a new array per chunk.
        case returningArrays
        /// `feed(_:into:)` with a reused `SSEBatch`: each event's data borrowed, its length read.
        case batch
        /// As `items`, then `ResearchEventDecoder.decode` on each item (the JSON parsed from the `String`).
        case researchFromItems
        /// As `batch`, then `ResearchEventDecoder.decode` on each item (the JSON parsed from the bytes).
        case researchFromBatch
    }

    /// The synthetic streams.
    enum Stream: Hashable {
        /// `data: {"type":"token","content":"word "}`, 42 bytes an event.
        case tokens
        /// Token events as Cadence's protocol sends them, with `event:` and `id:` lines.
        case protocolTokens
        /// 64 KiB of ASCII JSON-like text an event.
        case large
        /// 64 KiB of JSON-like text an event, with a non-ASCII character every 19 bytes or so.
        case largeAccented

        /// The stream, at least `size` bytes long (smaller ones suit callgrind).
        func bytes(size: Int = minimumBytes) -> [UInt8] {
            switch self {
            case .tokens: tokenStream(size: size)
            case .protocolTokens: protocolTokenStream(size: size)
            case .large: largeEventStream(words: words, size: size)
            case .largeAccented: largeEventStream(words: proseWords, size: size)
            }
        }
    }

    /// What one case measured, and the rates the table prints.
    struct Figures: Sendable {
        var name: String
        var mebibytes: Double
        var events: Int
        /// The best time of the decoding, and of an LF scan of the same bytes measured right after it.
        var seconds, lineFeedScanSeconds: Double

        var mebibytesPerSecond: Double { mebibytes / seconds }
        var millionEventsPerSecond: Double { Double(events) / seconds / 1e6 }
        var lineFeedScanMebibytesPerSecond: Double { mebibytes / lineFeedScanSeconds }
        /// The decoding's throughput as a share of the LF scan's, in percent.
        var shareOfLineFeedScan: Double { 100 * lineFeedScanSeconds / seconds }
    }

    /// One case: a stream and a way of feeding it.
    struct Case: Sendable {
        var name: String
        var stream: Stream
        var feeding: Feeding
    }

    /// The cases, by name. Issue 16's goals are about `tokens-borrowed` (and `tokens`, the same events as
    /// `String`s) and `large-prose` (a `String` each, validated in bulk).
    static let cases: [Case] = [
        Case(name: "tokens", stream: .tokens, feeding: .items),
        Case(name: "tokens-borrowed", stream: .tokens, feeding: .batch),
        Case(name: "tokens-arrays", stream: .tokens, feeding: .returningArrays),
        Case(name: "protocol", stream: .protocolTokens, feeding: .items),
        Case(name: "protocol-borrowed", stream: .protocolTokens, feeding: .batch),
        Case(name: "protocol-research", stream: .protocolTokens, feeding: .researchFromItems),
        Case(name: "protocol-research-borrowed", stream: .protocolTokens, feeding: .researchFromBatch),
        Case(name: "large", stream: .large, feeding: .items),
        Case(name: "large-borrowed", stream: .large, feeding: .batch),
        Case(name: "large-prose", stream: .largeAccented, feeding: .items),
        Case(name: "large-prose-borrowed", stream: .largeAccented, feeding: .batch),
    ]

    static func run(cases names: [String]) {
        if let unknown = names.first(where: { name in !cases.contains { $0.name == name } }) {
            print("unknown sse case \(unknown); known: \(cases.map(\.name).joined(separator: ", "))")
            return
        }
        print("SSE decoding, \(chunkSize)-byte chunks, best of \(Stopwatch().repetitions) runs")
        print("case                            MiB    events     MiB/s   M events/s  LF-scan MiB/s  of LF scan")
        var streams: [Stream: [UInt8]] = [:]  // each stream is made once, for all the cases that read it
        for testCase in cases where names.isEmpty || names.contains(testCase.name) {
            let stream = streams[testCase.stream] ?? testCase.stream.bytes()
            streams[testCase.stream] = stream
            guard let figures = measure(testCase, stream) else { continue }
            print(row(figures))
            report(figures)
        }
        print(
            "goals: token events ≥ 650 MiB/s and ≥ 15 M events/s, or ≥ 25 % of the LF scan; "
                + "64 KB accented ≥ 2 GB/s (1907 MiB/s) or ≥ 25 % of the LF scan"
        )
    }

    /// Decodes `stream` as `testCase` says and measures it; `nil` (saying why) if events were lost.
    static func measure(_ testCase: Case, _ stream: [UInt8]) -> Figures? {
        let stopwatch = Stopwatch()
        let decoded = stopwatch.best { decode(stream, testCase.feeding) }
        // Each synthetic event ends with the stream's only blank lines: check nothing was lost.
        let expected = zip(stream, stream.dropFirst()).reduce(0) { $0 + ($1 == (0x0A, 0x0A) ? 1 : 0) }
        guard decoded.result == expected else {
            print("\(testCase.name): decoded \(decoded.result) events where the stream has \(expected); not measured")
            return nil
        }
        let scanned = stopwatch.best { LineFeedScan.count(stream, chunkSize: chunkSize) }
        return Figures(
            name: testCase.name, mebibytes: Double(stream.count) / Double(1 << 20), events: decoded.result,
            seconds: decoded.seconds, lineFeedScanSeconds: scanned.seconds)
    }

    /// One row of the table.
    static func row(_ figures: Figures) -> String {
        leftAligned(figures.name, 28) + padded(formatted(figures.mebibytes, decimals: 0), 8)
            + padded(String(figures.events), 10) + padded(formatted(figures.mebibytesPerSecond, decimals: 0), 10)
            + padded(formatted(figures.millionEventsPerSecond, decimals: 2), 13)
            + padded(formatted(figures.lineFeedScanMebibytesPerSecond, decimals: 0), 15)
            + padded(formatted(figures.shareOfLineFeedScan, decimals: 1) + " %", 12)
    }

    /// Feeds `stream` in chunks, as a client reading a response body would, and counts its events.
    /// Never inlined, so that callgrind can count its instructions alone.
    @inline(never)
    static func decode(_ stream: [UInt8], _ feeding: Feeding) -> Int {
        switch feeding {
        case .items: decodeIntoItems(stream, research: false)
        case .researchFromItems: decodeIntoItems(stream, research: true)
        case .batch: decodeIntoBatch(stream, research: false)
        case .researchFromBatch: decodeIntoBatch(stream, research: true)
        case .returningArrays: decodeReturningArrays(stream)
        }
    }

    /// Calls `body` with each chunk of `stream`.
    static func forEachChunk(of stream: [UInt8], _ body: (UnsafeRawBufferPointer) throws(SSEDecoderError) -> Void) {
        stream.withUnsafeBytes { whole in
            var offset = 0
            while offset < whole.count {
                do {
                    try body(UnsafeRawBufferPointer(rebasing: whole[offset..<min(offset + chunkSize, whole.count)]))
                } catch {
                    fatalError("benchmark stream failed to decode: \(error)")
                }
                offset += chunkSize
            }
        }
    }

    /// Through `feed(_:into:)` and one reused array of items; with `research`, decodes each item's event.
    static func decodeIntoItems(_ stream: [UInt8], research: Bool) -> Int {
        var decoder = SSEDecoder()
        var items: [SSEItem] = []
        items.reserveCapacity(chunkSize / 8)
        var events = 0
        forEachChunk(of: stream) { chunk throws(SSEDecoderError) in
            try decoder.feed(chunk, into: &items)
            events += research ? researchEvents(in: items) : eventCount(in: items)
            items.removeAll(keepingCapacity: true)
        }
        return events
    }

    /// Through `feed(_:into:)` and one reused batch, reading each event's data length; with
    /// `research`, decodes each item's event from its bytes.
    static func decodeIntoBatch(_ stream: [UInt8], research: Bool) -> Int {
        var decoder = SSEDecoder()
        var batch = SSEBatch()
        var events = 0
        var dataBytes = 0
        forEachChunk(of: stream) { chunk throws(SSEDecoderError) in
            try decoder.feed(chunk, into: &batch)
            if research {
                events += researchEvents(in: batch)
            } else {
                for case .event(let event) in batch {
                    events += 1
                    dataBytes += event.dataBytes.count
                }
            }
            batch.removeAll()
        }
        return research || dataBytes > 0 ? events : 0
    }

    /// How many of `items` are events.
    @inline(__always)
    static func eventCount(in items: [SSEItem]) -> Int {
        var events = 0
        for case .event in items { events += 1 }
        return events
    }

    /// How many of `items` (or of a batch's) decode as research events.
    static func researchEvents(in items: [SSEItem]) -> Int {
        items.count { (try? ResearchEventDecoder.decode($0)) != nil }
    }

    static func researchEvents(in batch: SSEBatch) -> Int {
        batch.count { (try? ResearchEventDecoder.decode($0)) != nil }
    }

    /// Feeds `stream` in chunks through the convenience `feed(_:) -> [SSEItem]`.
    static func decodeReturningArrays(_ stream: [UInt8]) -> Int {
        var decoder = SSEDecoder()
        var events = 0
        var offset = 0
        while offset < stream.count {
            do {
                for case .event in try decoder.feed(stream[offset..<min(offset + chunkSize, stream.count)]) {
                    events += 1
                }
            } catch {
                fatalError("benchmark stream failed to decode: \(error)")
            }
            offset += chunkSize
        }
        return events
    }

    /// Words for the ASCII streams (JSON encoders often escape everything else).
    static let words = [
        "the", "answer", "streams", "word", "by", "word", "with", "citations", "[1]", "and", "sources,",
        "token", "a", "decoded", "on", "Linux", "server-sent", "events", "arrive", "as", "bytes", "summary.",
    ]
    /// Words with non-ASCII letters and punctuation, as in French prose: a non-ASCII character
    /// every 30 bytes or so, which takes the standard library's slow UTF-8 validation.
    static let proseWords = [
        "the", "answer", "streams", "word", "by", "word", "with", "citations", "[1]", "and", "sources,",
        "token", "“a", "décodé”", "on", "Linux", "server-sent", "events", "arrive", "as", "bytes", "résumé —",
    ]

    /// `data: {"type":"token","content":"word "}` events, words varying.
    static func tokenStream(size: Int) -> [UInt8] {
        var stream: [UInt8] = []
        stream.reserveCapacity(size + 4096)
        var index = 0
        while stream.count < size {
            stream += #"data: {"type":"token","content":""#.utf8
            stream += words[index % words.count].utf8
            stream += #" "}"#.utf8
            stream += "\n\n".utf8
            index += 1
        }
        return stream
    }

    /// Token events as Cadence's protocol sends them: `event`, `id` and `data` lines.
    static func protocolTokenStream(size: Int) -> [UInt8] {
        var stream: [UInt8] = []
        stream.reserveCapacity(size + 4096)
        var sequence = 0
        while stream.count < size {
            stream += "event: token\nid: \(sequence)\n".utf8
            stream += #"data: {"type":"token","seq":\#(sequence),"content":""#.utf8
            stream += words[sequence % words.count].utf8
            stream += #" "}"#.utf8
            stream += "\n\n".utf8
            sequence += 1
        }
        return stream
    }

    /// Events carrying 64 KiB of JSON-like text each, on one data line.
    static func largeEventStream(words: [String], size: Int) -> [UInt8] {
        var payload: [UInt8] = Array(#"{"type":"complete","text":""#.utf8)
        var index = 0
        while payload.count < (64 << 10) - 2 {
            payload += words[index % words.count].utf8
            payload.append(UInt8(ascii: " "))
            index += 1
        }
        payload = Array(payload.prefix((64 << 10) - 2)) + Array(#""}"#.utf8)
        var stream: [UInt8] = []
        stream.reserveCapacity(size + payload.count + 16)
        while stream.count < size {
            stream += "data: ".utf8
            stream += payload
            stream += "\n\n".utf8
        }
        return stream
    }
}
