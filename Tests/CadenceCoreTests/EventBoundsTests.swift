import CadenceCore
import Testing

/// Every event a server sends stays small: long deltas become several `token` events that join to
/// the delta, and anything else over 1 MiB is trimmed and says so (issue 33, finding 6).
@Suite("Event bounds")
struct EventBoundsTests {
    static let bounds = EventBounds()

    static func texts(_ kinds: [ResearchEvent.Kind]) -> [String] {
        kinds.map { kind -> String in
            guard case .token(let text) = kind else {
                Issue.record("not a token: \(kind)")
                return ""
            }
            return text
        }
    }

    static func jsonBytes(_ kind: ResearchEvent.Kind) -> Int {
        ResearchEvent(sequence: 1 << 40, kind: kind).json.jsonText.utf8.count
    }

    /// Deltas of 64 KB, by name (the names keep the test log short).
    static let deltas: [String: String] = [
        "words": String(repeating: "word ", count: 64 * 1024 / 5),
        // Emoji, a flag, a family and combining marks around every 4 KB boundary.
        "emoji and combining marks": String(repeating: "ab👩‍👩‍👧‍👦🇫🇷e\u{301}\u{302}\u{303}x ", count: 64 * 1024 / 40),
        "two-byte letters": String(repeating: "é", count: 40_000),
        "a family at the first boundary": String(repeating: "a", count: 4095) + "👨‍👩‍👧" + String(repeating: "b", count: 60_000),
    ]

    @Test("long reasoning and refusal split like tokens, each keeping its kind")
    func reasoningAndRefusalSplit() {
        let text = String(repeating: "thinking é ", count: 8_000)
        for (make, isKind) in [
            (ResearchEvent.Kind.reasoning, { (k: ResearchEvent.Kind) in if case .reasoning = k { true } else { false } }),
            (ResearchEvent.Kind.refusal, { (k: ResearchEvent.Kind) in if case .refusal = k { true } else { false } }),
        ] {
            let pieces = Self.bounds.bounded(make(text))
            #expect(pieces.count >= text.utf8.count / 4096)
            #expect(pieces.allSatisfy(isKind))
            #expect(pieces.allSatisfy { Self.jsonBytes($0) <= 4096 + 64 })
            let joined = pieces.map { kind -> String in
                switch kind {
                case .reasoning(let t), .refusal(let t): t
                default: ""
                }
            }.joined()
            #expect(joined == text)
        }
    }

    @Test("a tool call with 2 MB of arguments is cut to fit one event, and says so")
    func hugeToolCall() throws {
        let call = ToolCall(id: "call_1", name: "write", arguments: String(repeating: "x", count: 2 << 20))
        let kinds = Self.bounds.bounded(.toolCall(call))
        #expect(kinds.count == 1)
        guard case .toolCall(let kept) = try #require(kinds.first) else {
            Issue.record("not a tool call")
            return
        }
        #expect(kept.name == "write" && kept.id == "call_1")
        #expect(kept.arguments.hasSuffix("[trimmed from \(2 << 20) bytes]"))
        #expect(Self.jsonBytes(.toolCall(kept)) <= 1 << 20)
    }

    @Test("a 64 KB delta becomes at least 16 tokens of at most 4 KB that join to it", arguments: deltas.keys.sorted())
    func longDeltaSplitsOnGraphemes(name: String) throws {
        let delta = try #require(Self.deltas[name])
        let pieces = Self.texts(Self.bounds.bounded(.token(delta)))
        #expect(pieces.count >= delta.utf8.count / 4096)
        #expect(pieces.count >= 16 || delta.utf8.count < 64 * 1024)
        #expect(pieces.allSatisfy { $0.utf8.count <= 4096 && !$0.isEmpty })
        #expect(pieces.joined() == delta)
        // Each piece is whole graphemes: its characters are the delta's characters, in order.
        #expect(pieces.reduce(0) { $0 + $1.count } == delta.count)
    }

    @Test func aShortDeltaIsOneToken() {
        #expect(Self.bounds.bounded(.token("Hello")) == [.token("Hello")])
        let exact = String(repeating: "a", count: 4096)
        #expect(Self.bounds.bounded(.token(exact)) == [.token(exact)])
    }

    @Test func aCitationMarkerIsNeverCut() {
        // `[123]` straddles the 4,096th byte.
        let delta = String(repeating: "a", count: 4093) + "[123] " + String(repeating: "b", count: 5000)
        let pieces = Self.texts(Self.bounds.bounded(.token(delta)))
        #expect(pieces.joined() == delta)
        #expect(pieces.contains { $0.contains("[123]") })
        #expect(pieces.allSatisfy { $0.utf8.count <= 4096 })
    }

    @Test func aGraphemeLargerThanATokenIsCutBetweenScalars() {
        let huge = "x" + String(repeating: "\u{301}", count: 5000) + "y"
        let pieces = Self.texts(Self.bounds.bounded(.token(huge)))
        #expect(pieces.joined() == huge)
        #expect(pieces.allSatisfy { $0.utf8.count <= 4096 })
    }

    @Test("a complete with 160,000 sources and large metadata stays under 1 MiB and says what it cut")
    func hugeCompleteIsTrimmed() throws {
        let sources = (1...160_000).map {
            Source(id: "\($0)", title: "Title \($0)", url: "https://example.com/\($0)", snippet: "snippet \($0)")
        }
        let metadata: [String: JSONValue] = [
            "engine": "test", "huge": .string(String(repeating: "m", count: 3 << 20)), "rounds": 2,
        ]
        let kinds = Self.bounds.bounded(.complete(Completion(sources: sources, metadata: metadata, followUps: ["Why?"])))
        guard kinds.count == 1, case .complete(let trimmed) = kinds[0] else {
            Issue.record("not one complete: \(kinds.count)")
            return
        }
        #expect(Self.jsonBytes(kinds[0]) <= 1 << 20)
        let notes = try #require(trimmed.metadata["trimmed"])
        #expect(notes["metadata_keys"] == .array(["huge"]))
        let omitted = try #require(notes["sources_omitted"]?.intValue)
        #expect(omitted + trimmed.sources.count == sources.count)
        #expect(trimmed.sources == Array(sources.prefix(trimmed.sources.count)))
        #expect(trimmed.metadata["engine"] == "test" && trimmed.metadata["rounds"] == 2)
        #expect(trimmed.followUps == ["Why?"])
    }

    @Test func smallEventsPassUnchanged() {
        let complete = ResearchEvent.Kind.complete(Completion(sources: [Source(id: "1", title: "T", url: "u")]))
        #expect(Self.bounds.bounded(complete) == [complete])
        #expect(Self.bounds.bounded(.error(code: "x", message: "m")) == [.error(code: "x", message: "m")])
    }

    @Test func aHugeSourcesReadyKeepsWhatFitsAndSaysSo() {
        let sources = (1...2_000).map {
            Source(id: "\($0)", title: "Title \($0)", url: "https://example.com/\($0)", snippet: String(repeating: "s", count: 5000))
        }
        let kinds = Self.bounds.bounded(.sourcesReady(sources))
        #expect(kinds.allSatisfy { Self.jsonBytes($0) <= 1 << 20 })
        guard kinds.count == 2, case .sourceSelectionStarted(let note?) = kinds[0], case .sourcesReady(let kept) = kinds[1]
        else {
            Issue.record("expected a note and the kept sources: \(kinds.map(\.wireType))")
            return
        }
        #expect(note.contains("of 2000 sources"))
        #expect(!kept.isEmpty && kept.count < sources.count)
        #expect(kept.allSatisfy { $0.snippet.hasSuffix("[trimmed from 5000 bytes]") && $0.snippet.utf8.count <= 1024 })
        #expect(kept.map(\.id) == sources.prefix(kept.count).map(\.id))
    }

    @Test func aHugeErrorMessageIsCutWithANote() {
        let message = String(repeating: "e", count: 2 << 20)
        let kinds = Self.bounds.bounded(.error(code: "engine_failed", message: message))
        guard kinds.count == 1, case .error(let code, let cut) = kinds[0] else {
            Issue.record("not one error")
            return
        }
        #expect(code == "engine_failed")
        #expect(cut.utf8.count <= 64 << 10)
        #expect(cut.hasSuffix("… [trimmed from \(2 << 20) bytes]"))
    }

    @Test func aHugeStageMessageIsCut() {
        let kinds = Self.bounds.bounded(.planningComplete(message: nil, queries: Array(repeating: String(repeating: "q", count: 100), count: 20_000)))
        #expect(kinds.count == 1)
        #expect(kinds.allSatisfy { Self.jsonBytes($0) <= 1 << 20 })
        guard case .planningComplete(let message?, let queries) = kinds[0] else {
            Issue.record("no note")
            return
        }
        #expect(message.contains("queries not listed"))
        #expect(!queries.isEmpty)
    }
}
