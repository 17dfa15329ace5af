import CadenceCore
import Testing

/// Every case of `../shared/conformance/sse-public.json`, at every chunking.
@Suite("SSE conformance corpus")
struct SSEConformanceTests {
    @Test("the corpus loads, with only the kinds these tests know")
    func corpusLoads() throws {
        let cases = try SSEConformanceCorpus.load()
        #expect(cases.count >= 70)
        #expect(Set(cases.map(\.kind)) == ["parse", "reconnect", "http"])
    }

    @Test("parse cases, whole, in 1…8-byte chunks and at each critical split", arguments: try parseCases())
    func parse(_ testCase: SSEConformanceCase) throws {
        let bytes = try testCase.bytes()
        for chunking in SSEChunking.standard(splits: (testCase.criticalSplits ?? []) + (testCase.splitAt ?? [])) {
            var decoder = SSEDecoder()
            let decoding = decoder.decode(bytes, chunking)
            #expect(decoding.error == nil, "\(chunking)")
            #expect(decoding.events == testCase.expectedEvents(testCase.expected), "\(chunking)")
            #expect(decoding.comments == testCase.expectedComments, "\(chunking)")
            #expect(decoder.reconnectionTime == testCase.expectedRetry, "\(chunking)")
            #expect(decoding.retries.last == decoder.reconnectionTime, "\(chunking)")
            #expect(decoder.lastEventID == testCase.lastEventId, "\(chunking)")
        }
    }

    @Test("reconnect cases: one decoder across connections, finished between them", arguments: try reconnectCases())
    func reconnectWithFinish(_ testCase: SSEConformanceCase) throws {
        let connections = try #require(testCase.connections)
        for chunking in SSEChunking.standard(splits: []) {
            var decoder = SSEDecoder()
            var all: [SSEEvent] = []
            for (number, connection) in connections.enumerated() {
                #expect(decoder.lastEventID == connection.requestLastEventId ?? "", "connection \(number), \(chunking)")
                let decoding = decoder.decode(Array(connection.stream.utf8), chunking)
                #expect(decoding.error == nil)
                #expect(
                    decoding.events == testCase.expectedEvents(connection.expected), "connection \(number), \(chunking)"
                )
                all += decoding.events
            }
            #expect(all == testCase.expectedEvents(testCase.expected), "\(chunking)")
            #expect(decoder.reconnectionTime == testCase.expectedRetry, "\(chunking)")
            #expect(decoder.lastEventID == testCase.lastEventId, "\(chunking)")
        }
    }

    @Test("reconnect cases: a new decoder per connection, given the last event ID", arguments: try reconnectCases())
    func reconnectWithNewDecoder(_ testCase: SSEConformanceCase) throws {
        var lastEventID = ""
        var reconnectionTime: Int?
        for connection in try #require(testCase.connections) {
            #expect(lastEventID == connection.requestLastEventId ?? "")
            var decoder = SSEDecoder(lastEventID: lastEventID)
            let decoding = decoder.decode(Array(connection.stream.utf8), .size(3))
            #expect(decoding.events == testCase.expectedEvents(connection.expected))
            lastEventID = decoder.lastEventID
            reconnectionTime = decoder.reconnectionTime ?? reconnectionTime  // kept by the event source
        }
        #expect(lastEventID == testCase.lastEventId)
        #expect(reconnectionTime == testCase.expectedRetry)
    }

    /// HTTP cases are about a response's status and content type, which the client checks before
    /// any byte reaches the decoder; CadenceClient's tests cover them. This fails if one ever
    /// carries a body for the decoder.
    @Test("http cases carry nothing for the decoder: status and content type are the client's to check")
    func httpCasesHaveNoBody() throws {
        let cases = try SSEConformanceCorpus.cases(ofKind: "http")
        #expect(!cases.isEmpty)
        for testCase in cases {
            #expect(
                testCase.stream == nil && testCase.streamHex == nil && testCase.connections == nil, "\(testCase.name)")
            #expect(testCase.expected.isEmpty, "\(testCase.name)")
        }
    }

    static func parseCases() throws -> [SSEConformanceCase] {
        try SSEConformanceCorpus.cases(ofKind: "parse").filter { $0.generator == nil }
    }

    static func reconnectCases() throws -> [SSEConformanceCase] {
        try SSEConformanceCorpus.cases(ofKind: "reconnect")
    }
}

extension SSEConformanceCase {
    struct MalformedCase: Error, CustomStringConvertible {
        var description: String
    }

    /// The stream's bytes, from `stream` or `stream_hex`.
    func bytes() throws -> [UInt8] {
        if let stream { return Array(stream.utf8) }
        guard let hex = streamHex, hex.count.isMultiple(of: 2) else {
            throw MalformedCase(description: "\(name) has neither stream nor stream_hex")
        }
        let digits = Array(hex.utf8)
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw MalformedCase(description: "\(name) has bad hex at \(index)")
            }
            return byte
        }
    }

    /// The corpus records comments as the text after the colon; the decoder drops one leading space.
    var expectedComments: [String] {
        (comments ?? []).map { $0.hasPrefix(" ") ? String($0.dropFirst()) : $0 }
    }

    /// The final reconnection time; values beyond `Int.max` are expected clamped to it.
    var expectedRetry: Int? {
        retry.map { $0 >= Double(Int.max) ? Int.max : Int($0) }
    }

    func expectedEvents(_ events: [Event]) -> [SSEEvent] {
        events.flatMap { event in
            let data: [String] =
                if let generator = event.dataGenerator {
                    generator.pattern != nil ? generator.expanded() : [generator.expanded().joined()]
                } else {
                    [event.data ?? ""]
                }
            return data.map { SSEEvent(type: event.event, data: $0, id: event.id) }
        }
    }
}

extension SSEConformanceCase.Generator.Part {
    /// The text of a generator part: one string per repetition of a pattern, else one string.
    func expanded(scale: Int = 1) -> [String] {
        let count = (self.count ?? 1) / scale
        if let text { return [text] }
        if let `repeat` { return [String(repeating: `repeat`, count: count)] }
        guard let pattern else { return [] }
        return (0..<count).map { pattern.replacing("{i}", with: String($0)) }
    }
}
