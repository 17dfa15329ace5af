/// One event of Cadence's research protocol, with the sequence number the server gave it.
///
/// On the wire each event is an SSE event whose `event:` field is ``Kind/wireType``,
/// whose `id:` is the sequence number and whose `data:` is a JSON object with a `"type"`
/// member (see `docs/protocol.md`). The `: flush-tokens` comment becomes ``Kind/flushTokens``
/// with no sequence number.
///
/// ```swift
/// let event = ResearchEvent(sequence: 7, kind: .token("Hello"))
/// switch event.kind {
/// case .token(let text): print(text, terminator: "")
/// default: break
/// }
/// ```
public struct ResearchEvent: Sendable, Hashable {
    /// The server's sequence number; `nil` for events that come from comments.
    public var sequence: Int?
    public var kind: Kind

    public init(sequence: Int? = nil, kind: Kind) {
        self.sequence = sequence
        self.kind = kind
    }

    /// Every event type of the protocol. Unknown types decode to ``unknown(type:json:)``, never an error.
    public enum Kind: Sendable, Hashable {
        /// A piece of answer text.
        case token(String)
        /// The server has sent every token it has (`: flush-tokens`).
        case flushTokens
        /// A piece of the model's visible reasoning, kept apart from the answer text.
        case reasoning(String)
        /// A piece of the model's refusal, kept apart from the answer text.
        case refusal(String)
        /// A tool call the model made, whole; running the tool is up to the app.
        case toolCall(ToolCall)
        /// The research depth the server chose (for example `"quick"` or `"deep"`), and why.
        case tierSelected(tier: String, reason: String?)
        /// The server started searching one collection.
        case searching(source: String)
        /// The server finished searching one collection and found `count` results.
        case searchComplete(count: Int, source: String)
        /// Searching one collection failed (a timeout, a refusal, an unreadable reply); the research
        /// goes on with the others.
        case searchFailed(source: String, reason: String)
        /// The sources the answer will cite, before the text starts.
        case sourcesReady([Source])
        case planningStarted(message: String?)
        /// The plan: the queries the research will run.
        case planningComplete(message: String?, queries: [String])
        case roundStarted(round: Int, message: String?)
        case roundComplete(round: Int, sources: Int, status: String)
        case reflectionStarted(message: String?)
        case reflectionComplete(message: String?, sufficient: Bool?)
        case sourceSelectionStarted(message: String?)
        case synthesisStarted(message: String?)
        /// The server's final word. Clients store it and complete only when the stream really ends.
        case complete(Completion)
        /// The server failed; `code` is machine-readable, `message` is for people.
        case error(code: String, message: String)
        /// An event type this client does not know, kept whole.
        case unknown(type: String, json: JSONValue)
    }
}

extension ResearchEvent.Kind {
    /// Whether the event ends its answer: `complete` or `error`.
    public var isTerminal: Bool {
        switch self {
        case .complete, .error: true
        default: false
        }
    }

    /// The `type` string of this event on the wire (`"token"`, `"sources_ready"`, …).
    public var wireType: String {
        switch self {
        case .token: "token"
        case .flushTokens: "flush_tokens"
        case .reasoning: "reasoning"
        case .refusal: "refusal"
        case .toolCall: "tool_call"
        case .tierSelected: "tier_selected"
        case .searching: "searching"
        case .searchComplete: "search_complete"
        case .searchFailed: "search_failed"
        case .sourcesReady: "sources_ready"
        case .planningStarted: "planning_started"
        case .planningComplete: "planning_complete"
        case .roundStarted: "round_started"
        case .roundComplete: "round_complete"
        case .reflectionStarted: "reflection_started"
        case .reflectionComplete: "reflection_complete"
        case .sourceSelectionStarted: "source_selection_started"
        case .synthesisStarted: "synthesis_started"
        case .complete: "complete"
        case .error: "error"
        case .unknown(let type, _): type
        }
    }

    /// A short human description of a research stage, or `nil` for text and terminal events.
    public var stageDescription: String? {
        switch self {
        case .tierSelected(let tier, _): "Research depth: \(tier)"
        case .searching(let source): "Searching \(source)…"
        case .searchComplete(let count, let source): "Found \(count) result\(count == 1 ? "" : "s") in \(source)"
        case .searchFailed(let source, let reason): "Searching \(source) failed: \(reason)"
        case .sourcesReady(let sources): "Selected \(sources.count) source\(sources.count == 1 ? "" : "s")"
        case .planningStarted(let message): message ?? "Planning…"
        case .planningComplete(let message, let queries): message ?? "Planned \(queries.count) queries"
        case .roundStarted(let round, let message): message ?? "Round \(round)…"
        case .roundComplete(let round, let sources, let status): "Round \(round): \(sources) sources (\(status))"
        case .reflectionStarted(let message): message ?? "Reflecting…"
        case .reflectionComplete(let message, _): message ?? "Reflection done"
        case .sourceSelectionStarted(let message): message ?? "Selecting sources…"
        case .synthesisStarted(let message): message ?? "Writing the answer…"
        case .token, .flushTokens, .reasoning, .refusal, .toolCall, .complete, .error, .unknown: nil
        }
    }
}

/// A tool (function) call a model made, as the `tool_call` event carries it.
public struct ToolCall: Sendable, Hashable, Codable {
    /// The provider's call identifier (empty when the provider gave none).
    public var id: String
    /// The tool's name.
    public var name: String
    /// The call's arguments as the model wrote them: usually a JSON object, not checked.
    public var arguments: String

    public init(id: String, name: String, arguments: String) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }
}
