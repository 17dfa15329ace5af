/// Decodes OpenAI Chat Completions streams, and those of the OpenAI-compatible servers, into
/// ``ModelEvent``s.
///
/// Reads each choice by its `index` (never assuming `choices[0]`): `delta.content`, `delta.refusal`,
/// `delta.reasoning_content` or `delta.reasoning` (DeepSeek, vLLM, OpenRouter …), `delta.tool_calls`
/// keyed by their `index`, the legacy `function_call`, the legacy Completions `text`, and
/// `finish_reason`. A `usage` object (the `stream_options.include_usage` chunk with `choices: []`,
/// or one embedded in the last chunk) becomes ``ModelEvent/usage(_:)``. A chunk with empty `choices`
/// (Azure's first, content-filter results) yields nothing. `data: {"error":…}` after HTTP 200 becomes
/// ``ModelEvent/error(_:)`` and finishes the open choices with ``FinishReason/error``.
/// The stream ends on `data: [DONE]`; a choice still open then finishes with ``FinishReason/stop``,
/// and data after it is ignored.
///
/// ```swift
/// var decoder = OpenAIChatDecoder()
/// decoder.decode(SSEEvent(data: #"{"choices":[{"index":0,"delta":{"content":"Hi"}}]}"#))
/// // [.text("Hi", choice: 0)]
/// decoder.finish()  // [.finish(.truncated, choice: 0)]: no [DONE] was seen
/// ```
public struct OpenAIChatDecoder: Sendable {
    private var choices = ChoiceTracker()

    public init() {}

    /// Decodes one SSE event: an ``SSEEvent``, or an ``SSEBatch`` event read from its bytes.
    public mutating func decode(_ event: some SSEDataEvent) -> [ModelEvent] { decode(event: event) }

    /// Ends the stream: choices not finished yet finish with ``FinishReason/truncated`` unless
    /// `[DONE]` was seen.
    public mutating func finish() -> [ModelEvent] { choices.finishAtClose() }
}

extension OpenAIChatDecoder: ProviderPayloadDecoder {
    static var dialect: ModelDialect { .openAIChat }

    mutating func decode(sentinel: ProviderPayload) -> [ModelEvent]? {
        guard sentinel.isExactly("[DONE]") else { return nil }
        return choices.endStream(.stop)
    }

    mutating func decode(json: JSONValue, eventType: String, payload: ProviderPayload) -> [ModelEvent] {
        // `[DONE]` ended the stream and finished every choice: what follows it is ignored, or a choice
        // first seen after it would never finish.
        guard !choices.ended else { return [] }
        if let error = Self.streamError(in: json, eventType: eventType, payload: payload) {
            return [.error(error)] + choices.finishUnfinished(.error)
        }
        var events: [ModelEvent] = []
        for (position, choice) in (json["choices"]?.arrayValue ?? []).enumerated() {
            events += decode(choice: choice, position: position)
        }
        if let usage = json["usage"], usage.objectValue != nil {
            events.append(.usage(Self.usage(usage)))
        }
        return events
    }

    private mutating func decode(choice: JSONValue, position: Int) -> [ModelEvent] {
        let index = choice["index"]?.intValue ?? position
        choices.note(index)
        var events: [ModelEvent] = []
        if let delta = choice["delta"] {
            if let reasoning = Self.nonEmpty(delta["reasoning_content"]) ?? Self.nonEmpty(delta["reasoning"]) {
                events.append(.reasoning(reasoning, choice: index))
            }
            if let text = Self.nonEmpty(delta["content"]) { events.append(.text(text, choice: index)) }
            if let refusal = Self.nonEmpty(delta["refusal"]) { events.append(.refusal(refusal, choice: index)) }
            for (position, call) in (delta["tool_calls"]?.arrayValue ?? []).enumerated() {
                let callIndex = call["index"]?.intValue ?? position
                events += Self.toolCall(call["function"], id: call["id"], choice: index, index: callIndex)
            }
            if let call = delta["function_call"] {
                events += Self.toolCall(call, id: nil, choice: index, index: 0)
            }
        }
        if let text = Self.nonEmpty(choice["text"]) { events.append(.text(text, choice: index)) }
        if let reason = choice["finish_reason"]?.stringValue {
            events += choices.finish(index, Self.finishReason(reason))
        }
        return events
    }

    private static func toolCall(_ function: JSONValue?, id: JSONValue?, choice: Int, index: Int) -> [ModelEvent] {
        let delta = ToolCallDelta(
            choice: choice,
            index: index,
            id: nonEmpty(id),
            name: nonEmpty(function?["name"]),
            argumentsDelta: function?["arguments"]?.stringValue ?? ""
        )
        if delta.id == nil, delta.name == nil, delta.argumentsDelta.isEmpty { return [] }
        return [.toolCall(delta)]
    }

    static func usage(_ usage: JSONValue) -> ModelUsage {
        ModelUsage(openAI: usage, input: "prompt_tokens", output: "completion_tokens")
    }

    static func finishReason(_ value: String) -> FinishReason {
        switch value {
        case "stop", "eos", "stop_sequence", "end_turn": .stop
        case "length", "max_tokens": .length
        case "tool_calls", "function_call": .toolCalls
        case "content_filter": .contentFilter
        default: .other(value)
        }
    }
}
