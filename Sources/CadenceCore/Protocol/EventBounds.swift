/// The sizes a server keeps every event within, whatever an engine produces: text arrives in
/// `token` events of at most ``maxTokenBytes``, and no event's JSON is larger than ``maxEventBytes``.
///
/// A server passes each engine event through ``bounded(_:)`` before numbering it. A long model
/// delta becomes several `token` events, cut on grapheme boundaries and never inside a citation
/// marker, so joined they are exactly the delta. Any other event over the limit is trimmed, and
/// says so: a `complete` lists what was cut in `metadata.trimmed`, an `error` message ends with
/// a note, and strings cut short end with `…`.
///
/// ```swift
/// let bounds = EventBounds()
/// let events = bounds.bounded(.token(String(repeating: "é", count: 40_000)))
/// // 20 `token` events of 4,096 bytes or less; joined, the original text
/// ```
public struct EventBounds: Sendable, Hashable {
    /// The most UTF-8 bytes of text in one `token` event (4 KiB by default). A single grapheme
    /// larger than this (thousands of combining marks) is cut between its Unicode scalars.
    public var maxTokenBytes: Int
    /// The most bytes of JSON in one event (1 MiB by default).
    public var maxEventBytes: Int

    public init(maxTokenBytes: Int = 4 << 10, maxEventBytes: Int = 1 << 20) {
        self.maxTokenBytes = max(4, maxTokenBytes)
        self.maxEventBytes = max(4 << 10, maxEventBytes)
    }

    /// The events to send for one engine event, in order: usually the event itself.
    public func bounded(_ kind: ResearchEvent.Kind) -> [ResearchEvent.Kind] {
        switch kind {
        case .token(let text): return tokenPieces(of: text).map(ResearchEvent.Kind.token)
        case .reasoning(let text): return tokenPieces(of: text).map(ResearchEvent.Kind.reasoning)
        case .refusal(let text): return tokenPieces(of: text).map(ResearchEvent.Kind.refusal)
        default: break
        }
        // Room for `"sequence"` and the SSE framing the server adds.
        guard Self.size(ResearchEvent(kind: kind).json) > budget else { return [kind] }
        switch kind {
        case .complete(let completion):
            return [.complete(trimmed(completion))]
        case .sourcesReady(let sources):
            let (kept, omitted) = fitted(sources, budget: budget)
            guard omitted > 0 else { return [.sourcesReady(kept)] }
            let note =
                "Sending \(kept.count) of \(sources.count) sources: the rest would make the sources_ready event larger than \(maxEventBytes) bytes"
            return [.sourceSelectionStarted(message: note), .sourcesReady(kept)]
        case .error(let code, let message):
            return [.error(code: Self.shortened(code, to: 256), message: Self.shortened(message, to: 64 << 10))]
        case .unknown:
            // Engines do not make unknown events; one this large is not sent at all.
            return []
        default:
            return [trimmedStage(kind)]
        }
    }

    /// The byte budget of one event's JSON before the server adds its sequence number.
    var budget: Int { maxEventBytes - 256 }

    static func size(_ value: JSONValue) -> Int { value.jsonText.utf8.count }

    /// `text` cut to at most `bytes` UTF-8 bytes on a grapheme boundary, with a note saying how long
    /// it was; `text` itself when it fits.
    package static func shortened(_ text: String, to bytes: Int) -> String {
        let length = text.utf8.count
        guard length > bytes else { return text }
        let note = "… [trimmed from \(length) bytes]"
        var end = text.startIndex
        var used = 0
        while end < text.endIndex {
            let next = text.index(after: end)
            let size = text.utf8.distance(from: end, to: next)
            guard used + size + note.utf8.count <= bytes else { break }
            used += size
            end = next
        }
        return String(text[..<end]) + note
    }

    /// A stage event whose strings are cut to 4 KiB each, and whose query list keeps what fits.
    private func trimmedStage(_ kind: ResearchEvent.Kind) -> ResearchEvent.Kind {
        let cap = 4 << 10
        func cut(_ text: String?) -> String? { text.map { Self.shortened($0, to: cap) } }
        switch kind {
        case .tierSelected(let tier, let reason): return .tierSelected(tier: cut(tier)!, reason: cut(reason))
        case .searching(let source): return .searching(source: cut(source)!)
        case .searchComplete(let count, let source): return .searchComplete(count: count, source: cut(source)!)
        case .searchFailed(let source, let reason): return .searchFailed(source: cut(source)!, reason: cut(reason)!)
        case .planningStarted(let message): return .planningStarted(message: cut(message))
        case .planningComplete(let message, let queries):
            var kept: [String] = []
            var used = 0
            for query in queries.map({ Self.shortened($0, to: cap) }) {
                used += query.utf8.count + 8
                guard used <= budget - 2 * cap else { break }
                kept.append(query)
            }
            let note = kept.count < queries.count ? " (\(queries.count - kept.count) queries not listed)" : ""
            return .planningComplete(message: cut((message ?? "") + note).flatMap { $0.isEmpty ? nil : $0 }, queries: kept)
        case .roundStarted(let round, let message): return .roundStarted(round: round, message: cut(message))
        case .roundComplete(let round, let sources, let status):
            return .roundComplete(round: round, sources: sources, status: cut(status)!)
        case .reflectionStarted(let message): return .reflectionStarted(message: cut(message))
        case .reflectionComplete(let message, let sufficient):
            return .reflectionComplete(message: cut(message), sufficient: sufficient)
        case .sourceSelectionStarted(let message): return .sourceSelectionStarted(message: cut(message))
        case .synthesisStarted(let message): return .synthesisStarted(message: cut(message))
        case .toolCall(let call):
            // Arguments this large are not a call anyone can run; what is kept says it was cut.
            return .toolCall(
                ToolCall(
                    id: cut(call.id)!, name: cut(call.name)!,
                    arguments: Self.shortened(call.arguments, to: budget - 3 * cap)))
        case .token, .flushTokens, .reasoning, .refusal, .sourcesReady, .complete, .error, .unknown: return kind
        }
    }
}
