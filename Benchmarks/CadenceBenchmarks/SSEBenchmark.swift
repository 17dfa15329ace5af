import CadenceBenchmarkKit
import CadenceCore

/// SSEDecoder throughput on two synthetic streams of at least 50 MiB, fed in 4 KiB chunks, next
/// to the LF-scan ceiling on the same bytes.
enum SSEBenchmark {
    static let chunkSize = 4096
    static let minimumBytes = 50 << 20

    /// How the chunks reach the decoder.
    enum Feeding {
        /// `feed(_:into:)` with a raw buffer, reusing one array of items: the fastest way.
        case rawInto
        /// `feed(_:) -> [SSEItem]` with an `ArraySlice`: the simplest way, a new array per chunk.
        case returningArrays
    }

    /// The cases, by name.
    static let streams: [(name: String, title: String, feeding: Feeding, make: @Sendable () -> [UInt8])] = [
        ("tokens", "token events", .rawInto, tokenStream),
        ("tokens-arrays", "token events, feed(_:)", .returningArrays, tokenStream),
        ("protocol", "token events, event+id", .rawInto, protocolTokenStream),
        ("large", "64 KB events", .rawInto, { largeEventStream(words: words) }),
        ("large-prose", "64 KB events, accented", .rawInto, { largeEventStream(words: proseWords) }),
    ]

    static func run(cases: [String]) {
        if let unknown = cases.first(where: { name in !streams.contains { $0.name == name } }) {
            print("unknown sse case \(unknown); known: \(streams.map(\.name).joined(separator: ", "))")
            return
        }
        print("SSE decoding, \(chunkSize)-byte chunks, best of \(Stopwatch().repetitions) runs")
        print("stream                       MiB    events     MiB/s   M events/s  LF-scan MiB/s  of ceiling")
        for stream in streams where cases.isEmpty || cases.contains(stream.name) {
            measure(stream.title, stream.make(), stream.feeding)
        }
        print(
            "goals: token events ≥ 650 MiB/s and ≥ 15 M events/s; 64 KB events ≥ 2 GB/s (1907 MiB/s) or ≥ 50 % of the LF scan"
        )
    }

    /// Decodes `stream` and prints one row of figures.
    static func measure(_ name: String, _ stream: [UInt8], _ feeding: Feeding) {
        let stopwatch = Stopwatch()
        let decoded = stopwatch.best {
            switch feeding {
            case .rawInto: decode(stream)
            case .returningArrays: decodeReturningArrays(stream)
            }
        }
        // Each synthetic event ends with the stream's only blank lines: check nothing was lost.
        let expected = zip(stream, stream.dropFirst()).reduce(0) { $0 + ($1 == (0x0A, 0x0A) ? 1 : 0) }
        guard decoded.result == expected else {
            print("\(name): decoded \(decoded.result) events where the stream has \(expected); not measured")
            return
        }
        let scanned = stopwatch.best { LineFeedScan.count(stream, chunkSize: chunkSize) }
        let mebibytes = Double(stream.count) / Double(1 << 20)
        let throughput = mebibytes / decoded.seconds
        let ceiling = mebibytes / scanned.seconds
        report(name, throughput, eventsPerSecond: Double(decoded.result) / decoded.seconds, lineFeedScan: ceiling)
        print(
            leftAligned(name, 26) + padded(formatted(mebibytes, decimals: 0), 6) + padded(String(decoded.result), 10)
                + padded(formatted(throughput, decimals: 0), 10)
                + padded(formatted(Double(decoded.result) / decoded.seconds / 1e6, decimals: 2), 13)
                + padded(formatted(ceiling, decimals: 0), 15)
                + padded(formatted(100 * throughput / ceiling, decimals: 1) + " %", 12)
        )
    }

    /// Feeds `stream` in chunks, as a client reading a response body would, and counts events.
    static func decode(_ stream: [UInt8]) -> Int {
        var decoder = SSEDecoder()
        var items: [SSEItem] = []
        items.reserveCapacity(chunkSize / 8)
        var events = 0
        stream.withUnsafeBytes { whole in
            var offset = 0
            while offset < whole.count {
                let chunk = UnsafeRawBufferPointer(rebasing: whole[offset..<min(offset + chunkSize, whole.count)])
                do {
                    try decoder.feed(chunk, into: &items)
                } catch {
                    fatalError("benchmark stream failed to decode: \(error)")
                }
                for case .event in items { events += 1 }
                items.removeAll(keepingCapacity: true)
                offset += chunkSize
            }
        }
        return events
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
    static func tokenStream() -> [UInt8] {
        var stream: [UInt8] = []
        stream.reserveCapacity(minimumBytes + 4096)
        var index = 0
        while stream.count < minimumBytes {
            stream += #"data: {"type":"token","content":""#.utf8
            stream += words[index % words.count].utf8
            stream += #" "}"#.utf8
            stream += "\n\n".utf8
            index += 1
        }
        return stream
    }

    /// Token events as Cadence's protocol sends them: `event`, `id` and `data` lines.
    static func protocolTokenStream() -> [UInt8] {
        var stream: [UInt8] = []
        stream.reserveCapacity(minimumBytes + 4096)
        var sequence = 0
        while stream.count < minimumBytes {
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
    static func largeEventStream(words: [String]) -> [UInt8] {
        var payload: [UInt8] = Array(#"{"type":"complete","text":""#.utf8)
        var index = 0
        while payload.count < (64 << 10) - 2 {
            payload += words[index % words.count].utf8
            payload.append(UInt8(ascii: " "))
            index += 1
        }
        payload = Array(payload.prefix((64 << 10) - 2)) + Array(#""}"#.utf8)
        var stream: [UInt8] = []
        stream.reserveCapacity(minimumBytes + payload.count + 16)
        while stream.count < minimumBytes {
            stream += "data: ".utf8
            stream += payload
            stream += "\n\n".utf8
        }
        return stream
    }
}
