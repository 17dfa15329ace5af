/// Decodes Anthropic Messages streams into ``ModelEvent``s.
///
/// Follows the content blocks by their `index`: `text_delta` → text, `thinking_delta` → reasoning,
/// a `tool_use` block's start and its `input_json_delta` fragments → tool calls (numbered 0, 1 … in
/// order of their blocks). `message_delta` carries the cumulative usage, merged with the input counts
/// of `message_start` (cache reads and writes are added to the input), and the `stop_reason`
/// (`end_turn` and `stop_sequence` → ``FinishReason/stop``, `max_tokens` → ``FinishReason/length``,
/// `tool_use` → ``FinishReason/toolCalls``, `refusal` → ``FinishReason/refusal``). `ping` is ignored.
/// `event: error` (for example `overloaded_error`) gives an error and ``FinishReason/error``.
/// The stream ends on `message_stop`. Anthropic has a single choice, 0.
///
/// ```swift
/// var decoder = AnthropicDecoder()
/// decoder.decode(SSEEvent(type: "content_block_delta",
///     data: #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}"#))
/// // [.text("Hello", choice: 0)]
/// ```
public struct AnthropicDecoder: Sendable {
    private enum Block: Sendable, Hashable {
        case toolUse(index: Int)
        case other
    }

    private var choices = ChoiceTracker()
    private var blocks: [Int: Block] = [:]
    private var toolCallCount = 0
    private var uncachedInputTokens = 0
    private var cacheReadTokens: Int?
    private var cacheWriteTokens = 0
    private var outputTokens = 0

    public init() {}

    /// Decodes one SSE event: an ``SSEEvent``, or an ``SSEBatch`` event read from its bytes.
    public mutating func decode(_ event: some SSEDataEvent) -> [ModelEvent] { decode(event: event) }

    /// Ends the stream: without a `stop_reason` or `message_stop` the answer finishes as
    /// ``FinishReason/truncated``.
    public mutating func finish() -> [ModelEvent] { choices.finishAtClose() }
}

extension AnthropicDecoder: ProviderPayloadDecoder {
    static var dialect: ModelDialect { .anthropic }

    mutating func decode(json: JSONValue, eventType: String, payload: ProviderPayload) -> [ModelEvent] {
        choices.note(0)
        switch json["type"]?.stringValue ?? eventType {
        case "message_start":
            if let start = json["message"]?["usage"] { mergeUsage(start) }
            return []
        case "content_block_start":
            return blockStarted(index: json["index"]?.intValue ?? blocks.count, block: json["content_block"])
        case "content_block_delta":
            return blockDelta(index: json["index"]?.intValue, delta: json["delta"])
        case "message_delta":
            var events: [ModelEvent] = []
            if let delta = json["usage"], delta.objectValue != nil {
                mergeUsage(delta)
                events.append(.usage(usage))
            }
            if let reason = json["delta"]?["stop_reason"]?.stringValue {
                events += choices.finish(0, Self.finishReason(reason))
            }
            return events
        case "message_stop":
            return choices.endStream(.stop)
        case "error":
            return [.error(Self.reportedError(json, payload: payload))] + choices.finishUnfinished(.error)
        default:
            // A proxy's `{"error":{…}}` without a type is an error too; ping, content_block_stop and
            // types added later are ignored.
            guard json["type"] == nil, let error = ModelError(providerJSON: json) else { return [] }
            return [.error(error)] + choices.finishUnfinished(.error)
        }
    }

    private mutating func blockStarted(index: Int, block: JSONValue?) -> [ModelEvent] {
        switch block?["type"]?.stringValue {
        case "text":
            blocks[index] = .other
            return Self.nonEmpty(block?["text"]).map { [.text($0)] } ?? []
        case "thinking":
            blocks[index] = .other
            return Self.nonEmpty(block?["thinking"]).map { [.reasoning($0)] } ?? []
        case "tool_use", "server_tool_use":
            let call = ToolCallDelta(
                index: toolCallCount, id: Self.nonEmpty(block?["id"]), name: Self.nonEmpty(block?["name"]))
            blocks[index] = .toolUse(index: toolCallCount)
            toolCallCount += 1
            return [.toolCall(call)]
        default:
            blocks[index] = .other
            return []
        }
    }

    private func blockDelta(index: Int?, delta: JSONValue?) -> [ModelEvent] {
        switch delta?["type"]?.stringValue {
        case "text_delta":
            return Self.nonEmpty(delta?["text"]).map { [.text($0)] } ?? []
        case "thinking_delta":
            return Self.nonEmpty(delta?["thinking"]).map { [.reasoning($0)] } ?? []
        case "input_json_delta":
            guard let index, case .toolUse(let call)? = blocks[index],
                let fragment = Self.nonEmpty(delta?["partial_json"])
            else { return [] }
            return [.toolCall(ToolCallDelta(index: call, argumentsDelta: fragment))]
        default:
            return []  // signature_delta, citations_delta …
        }
    }

    /// Merges a usage object: Anthropic's counts are cumulative, and later ones may omit fields.
    private mutating func mergeUsage(_ json: JSONValue) {
        uncachedInputTokens = json["input_tokens"]?.intValue ?? uncachedInputTokens
        cacheReadTokens = json["cache_read_input_tokens"]?.intValue ?? cacheReadTokens
        cacheWriteTokens = json["cache_creation_input_tokens"]?.intValue ?? cacheWriteTokens
        outputTokens = json["output_tokens"]?.intValue ?? outputTokens
    }

    private var usage: ModelUsage {
        ModelUsage(
            inputTokens: uncachedInputTokens + (cacheReadTokens ?? 0) + cacheWriteTokens,
            outputTokens: outputTokens,
            cachedInputTokens: cacheReadTokens
        )
    }

    private static func finishReason(_ value: String) -> FinishReason {
        switch value {
        case "end_turn", "stop_sequence": .stop
        case "max_tokens", "model_context_window_exceeded": .length
        case "tool_use": .toolCalls
        case "refusal": .refusal
        default: .other(value)
        }
    }
}
