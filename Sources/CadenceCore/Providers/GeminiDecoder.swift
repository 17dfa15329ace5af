/// Decodes Gemini `streamGenerateContent` streams (`alt=sse`, or the JSON array without it) into
/// ``ModelEvent``s.
///
/// Each candidate is a choice (its `index`, else its position). Its `content.parts[].text` is text,
/// or reasoning when the part has `"thought": true`; `functionCall` parts are tool calls with their
/// `args` written as JSON. Gemini has no terminator and may repeat `finishReason` on every chunk, so
/// the last `finishReason` of each candidate is kept and emitted once, with the last
/// `usageMetadata`, when the stream ends (``finish()``): `STOP` → ``FinishReason/stop`` (or
/// ``FinishReason/toolCalls`` when the candidate called a function), `MAX_TOKENS` →
/// ``FinishReason/length``, `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII` …
/// → ``FinishReason/safety``. A candidate without one finishes as ``FinishReason/truncated``.
/// A prompt blocked by `promptFeedback.blockReason` finishes as ``FinishReason/safety``.
/// An error object (`{"error":{"code","message","status"}}`, also when the server writes it without
/// `data:` framing, see ``ModelStreamDecoder``) gives an error and ``FinishReason/error`` at once.
///
/// ```swift
/// var decoder = GeminiDecoder()
/// decoder.decode(SSEEvent(data: #"{"candidates":[{"content":{"parts":[{"text":"Hi"}]},"finishReason":"STOP"}]}"#))
/// // [.text("Hi", choice: 0)]
/// decoder.finish()  // [.finish(.stop, choice: 0)]
/// ```
public struct GeminiDecoder: Sendable {
    private var choices = ChoiceTracker()
    /// The last finish reason of each candidate, emitted at the end.
    private var pendingFinishes: [Int: FinishReason] = [:]
    /// The number of function calls of each candidate.
    private var toolCallCounts: [Int: Int] = [:]
    private var lastUsage: ModelUsage?

    public init() {}

    /// Decodes one SSE event: an ``SSEEvent``, or an ``SSEBatch`` event read from its bytes.
    public mutating func decode(_ event: some SSEDataEvent) -> [ModelEvent] { decode(event: event) }

    /// Ends the stream: emits the last usage and one finish per candidate.
    public mutating func finish() -> [ModelEvent] {
        guard !choices.ended else { return [] }
        choices.ended = true
        var events: [ModelEvent] = lastUsage.map { [.usage($0)] } ?? []
        if choices.seen.isEmpty { choices.note(0) }
        for choice in choices.seen {
            events += choices.finish(choice, pendingFinishes[choice] ?? .truncated)
        }
        return events
    }
}

extension GeminiDecoder: ProviderPayloadDecoder {
    static var dialect: ModelDialect { .gemini }

    static var acceptsArrays: Bool { true }

    mutating func decode(json: JSONValue, eventType: String, payload: ProviderPayload) -> [ModelEvent] {
        switch json {
        case .array(let chunks):  // the JSON-array stream, or an error wrapped in an array
            return chunks.flatMap { decode(json: $0, eventType: eventType, payload: payload) }
        case .object:
            break
        default:
            return [.error(Self.invalid("holds an array element that is not a JSON object", payload))]
        }
        if let error = Self.streamError(in: json, eventType: eventType, payload: payload) {
            return [.error(error)] + choices.finishUnfinished(.error)
        }
        var events: [ModelEvent] = []
        for (position, candidate) in (json["candidates"]?.arrayValue ?? []).enumerated() {
            events += decode(candidate: candidate, position: position)
        }
        if let blocked = json["promptFeedback"]?["blockReason"]?.stringValue {
            choices.note(0)
            pendingFinishes[0] = pendingFinishes[0] ?? Self.finishReason(blocked, calledTools: false)
        }
        if let usage = json["usageMetadata"], usage.objectValue != nil {
            lastUsage = ModelUsage(
                inputTokens: usage["promptTokenCount"]?.intValue ?? 0,
                outputTokens: (usage["candidatesTokenCount"]?.intValue ?? 0)
                    + (usage["thoughtsTokenCount"]?.intValue ?? 0),
                reasoningTokens: usage["thoughtsTokenCount"]?.intValue,
                cachedInputTokens: usage["cachedContentTokenCount"]?.intValue,
                totalTokens: usage["totalTokenCount"]?.intValue
            )
        }
        return events
    }

    private mutating func decode(candidate: JSONValue, position: Int) -> [ModelEvent] {
        let choice = candidate["index"]?.intValue ?? position
        choices.note(choice)
        var events: [ModelEvent] = []
        for part in candidate["content"]?["parts"]?.arrayValue ?? [] {
            if let text = Self.nonEmpty(part["text"]) {
                let thought = part["thought"]?.boolValue ?? false
                events.append(thought ? .reasoning(text, choice: choice) : .text(text, choice: choice))
            }
            if let call = part["functionCall"] {
                let index = toolCallCounts[choice, default: 0]
                toolCallCounts[choice] = index + 1
                let delta = ToolCallDelta(
                    choice: choice, index: index, id: Self.nonEmpty(call["id"]), name: Self.nonEmpty(call["name"]),
                    argumentsDelta: call["args"]?.jsonText ?? "{}")
                events.append(.toolCall(delta))
            }
        }
        if let reason = candidate["finishReason"]?.stringValue, reason != "FINISH_REASON_UNSPECIFIED" {
            pendingFinishes[choice] = Self.finishReason(reason, calledTools: toolCallCounts[choice] != nil)
        }
        return events
    }

    private static func finishReason(_ value: String, calledTools: Bool) -> FinishReason {
        switch value {
        case "STOP": calledTools ? .toolCalls : .stop
        case "MAX_TOKENS": .length
        case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "OTHER_SAFETY":
            .safety
        default: .other(value)
        }
    }
}
