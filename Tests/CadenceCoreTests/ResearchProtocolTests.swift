import CadenceCore
import Testing

@Suite("Research protocol")
struct ResearchProtocolTests {
    static let sources = [
        Source(id: "1", title: "Resume", url: "cadence://corpus/cadence/resume.md", snippet: "Last-Event-ID…"),
        Source(id: "2", title: "Quotes \"and\" \\ slashes", url: "https://example.com/a?b=c&d", snippet: "line\nbreak\ttab"),
    ]
    /// A paper with every optional member.
    static let paper = Source(
        id: "1", title: "Statins and muscle symptoms", url: "https://pubmed.ncbi.nlm.nih.gov/37654321/",
        snippet: "Most symptoms…",
        details: SourceDetails(
            kind: .paper, published: "2023-09-02", authors: ["Jane Smith", "Li Ng"], venue: "Lancet", pmid: "37654321",
            arxiv: "2401.01234v2", doi: "10.1016/S0140-6736(22)01545-8"))

    /// One value of every event type, with awkward text where text goes.
    static let everyKind: [ResearchEvent.Kind] = [
        .token("Hello"), .token(" wörld 🧑‍🚀 \n\"quoted\"\r\n\u{0}\u{1F}\u{2028}"), .token(""),
        .flushTokens,
        .reasoning("First, the \"cursor\"…\n"), .refusal("I can't help with that."),
        .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: "{\"city\":\"Paris\"}")),
        .toolCall(ToolCall(id: "", name: "noop", arguments: "")),
        .tierSelected(tier: "deep", reason: "multi-part question"), .tierSelected(tier: "quick", reason: nil),
        .searching(source: "streaming"), .searchComplete(count: 4, source: "streaming"),
        .searchFailed(source: "pubmed", reason: "no answer within 10 s"),
        .sourcesReady(sources), .sourcesReady([]), .sourcesReady([paper]),
        .planningStarted(message: "Planning"), .planningStarted(message: nil),
        .planningComplete(message: nil, queries: ["resume", "last event id"]),
        .roundStarted(round: 1, message: nil), .roundComplete(round: 2, sources: 7, status: "sufficient"),
        .reflectionStarted(message: nil), .reflectionComplete(message: "covered", sufficient: true),
        .reflectionComplete(message: nil, sufficient: nil),
        .sourceSelectionStarted(message: nil), .synthesisStarted(message: "Writing"),
        .complete(
            Completion(
                sources: sources, metadata: ["duration_ms": 12.5, "counts": ["hits": 3], "engine": "corpus"],
                followUps: ["Why?", "How?"])),
        .complete(Completion()),
        .error(code: "engine_failed", message: "boom"),
        .unknown(type: "future_event", json: ["type": "future_event", "payload": [1, 2.5, true, nil]]),
    ]

    @Test("encode then decode is the identity", arguments: everyKind)
    func roundTrip(kind: ResearchEvent.Kind) throws {
        let event = ResearchEvent(sequence: kind == .flushTokens ? nil : 42, kind: kind)
        let frame = ResearchEventEncoder.frame(event)
        var decoder = SSEDecoder()
        let items = try decoder.feed(Array(frame.utf8)) + decoder.finish()
        let decoded = try items.compactMap { try ResearchEventDecoder.decode($0) }
        #expect(decoded == [event])
    }

    @Test("the wire frame has event, id and one data line")
    func wireFormat() {
        let frame = ResearchEventEncoder.frame(ResearchEvent(sequence: 3, kind: .token("a\nb")))
        #expect(frame == "event: token\nid: 3\ndata: {\"type\":\"token\",\"content\":\"a\\nb\",\"sequence\":3}\n\n")
    }

    @Test("flush-tokens and keepalive comments")
    func comments() throws {
        #expect(try ResearchEventDecoder.decode(.comment("flush-tokens")) == ResearchEvent(kind: .flushTokens))
        #expect(try ResearchEventDecoder.decode(.comment("keepalive")) == nil)
        #expect(try ResearchEventDecoder.decode(.retry(1000)) == nil)
    }

    /// Found by the research fuzzer: an unknown event's type may hold a CR or LF (JSON escapes it),
    /// and framed as the `event:` field it split the frame, so a relay lost the event.
    @Test("an unknown type with a line break frames and decodes back to itself", arguments: ["a\rb", "a\nb", "a\r\n"])
    func unknownTypeWithALineBreak(_ type: String) throws {
        let event = ResearchEvent(sequence: 3, kind: .unknown(type: type, json: .object(["type": .string(type)])))
        let frame = ResearchEventEncoder.frame(event)
        #expect(!frame.hasPrefix("event:"), "\(frame.debugDescription)")
        var decoder = SSEDecoder()
        let items = try decoder.feed(Array(frame.utf8)) + decoder.finish()
        #expect(try items.compactMap { try ResearchEventDecoder.decode($0) } == [event])
    }

    /// Found by the research fuzzer: such an id became a sequence that the frame then wrote as an
    /// inexact JSON number, which failed to decode, so the event was lost on its way through a relay.
    @Test("an id beyond the integers JSON holds exactly is no sequence number")
    func hugeID() throws {
        let data = #"{"type":"token","content":"a"}"#
        let huge = try ResearchEventDecoder.decode(SSEEvent(type: "token", data: data, id: "1105500789780454512"))
        #expect(huge.sequence == nil)
        let large = try ResearchEventDecoder.decode(SSEEvent(type: "token", data: data, id: "8999999999999999"))
        #expect(large.sequence == 8_999_999_999_999_999)
    }

    @Test("an unknown type is a value, never an error")
    func unknownType() throws {
        let event = try ResearchEventDecoder.decode(SSEEvent(type: "x", data: #"{"type":"hologram","depth":3}"#, id: "9"))
        #expect(event.kind == .unknown(type: "hologram", json: ["type": "hologram", "depth": 3]))
        #expect(event.sequence == 9, "the SSE id stands in for a missing sequence")
    }

    @Test(
        "malformed JSON gives a typed error naming the event",
        arguments: [
            (#"{"type":"token""#, ResearchDecodingError.Code.invalidJSON),
            (#"[1,2]"#, .notAnObject),
            (#"{"content":"x"}"#, .missingMember),
            (#"{"type":"token"}"#, .missingMember),
            (#"{"type":"token","content":5}"#, .wrongType),
            (#"{"type":"search_complete","count":"many","source":"web"}"#, .wrongType),
        ])
    func malformed(data: String, code: ResearchDecodingError.Code) {
        #expect {
            try ResearchEventDecoder.decode(SSEEvent(type: "token", data: data, id: "4"))
        } throws: { error in
            guard let error = error as? ResearchDecodingError else { return false }
            let named = (try? JSONValue(parsing: data))?["type"]?.stringValue ?? "token"
            return error.code == code && error.description.contains("'\(named)'")
        }
    }

    @Test("JSON text escapes control characters and keeps type first")
    func jsonText() throws {
        let value: JSONValue = ["z": 1, "type": "t", "a": "\u{1}\"\\", "n": 1.5, "b": false, "x": nil]
        #expect(value.jsonText == #"{"type":"t","a":"\u0001\"\\","b":false,"n":1.5,"x":null,"z":1}"#)
        #expect(try JSONValue(parsing: value.jsonText) == value)
    }
}
