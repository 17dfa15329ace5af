/// Decodes Ollama's native NDJSON streams (`/api/chat` and `/api/generate`) into ``ModelEvent``s.
///
/// Each line is one JSON object: `message.content` (chat) or `response` (generate) is text,
/// `message.thinking` or `thinking` is reasoning, `message.tool_calls` are tool calls with their
/// `arguments` object written as JSON. The line with `"done": true` may still carry text; it also
/// carries the counts (`prompt_eval_count`, `eval_count`) and `done_reason` (`stop` →
/// ``FinishReason/stop``, or ``FinishReason/toolCalls`` when tools were called; `length` →
/// ``FinishReason/length``). An `{"error":"…"}` line, which Ollama sends with HTTP 200, gives an
/// error and ``FinishReason/error``. Ollama has a single choice, 0. Use ``NDJSONDecoder`` to split
/// the bytes into lines, or ``ModelStreamDecoder``, which does both.
///
/// ```swift
/// var decoder = OllamaDecoder()
/// decoder.decode(line: #"{"response":"!","done":true,"done_reason":"stop"}"#)
/// // [.text("!", choice: 0), .finish(.stop, choice: 0)]
/// ```
public struct OllamaDecoder: Sendable {
    private var choices = ChoiceTracker()
    private var toolCallCount = 0

    public init() {}

    /// Decodes one NDJSON line.
    public mutating func decode(line: String) -> [ModelEvent] {
        decode(payload: line, eventType: "message")
    }

    /// Ends the stream: without a `"done": true` line the answer finishes as ``FinishReason/truncated``.
    public mutating func finish() -> [ModelEvent] { choices.finishAtClose() }
}

extension OllamaDecoder: ProviderPayloadDecoder {
    static var dialect: ModelDialect { .ollama }

    mutating func decode(json: JSONValue, eventType: String, payload: ProviderPayload) -> [ModelEvent] {
        choices.note(0)
        if let error = Self.streamError(in: json, eventType: eventType, payload: payload) {
            return [.error(error)] + choices.finishUnfinished(.error)
        }
        let message = json["message"]
        var events: [ModelEvent] = []
        if let thinking = Self.nonEmpty(message?["thinking"]) ?? Self.nonEmpty(json["thinking"]) {
            events.append(.reasoning(thinking))
        }
        if let text = Self.nonEmpty(message?["content"]) ?? Self.nonEmpty(json["response"]) {
            events.append(.text(text))
        }
        for call in message?["tool_calls"]?.arrayValue ?? [] {
            let function = call["function"]
            let arguments = function?["arguments"]
            let delta = ToolCallDelta(
                index: function?["index"]?.intValue ?? toolCallCount,
                id: Self.nonEmpty(call["id"]),
                name: Self.nonEmpty(function?["name"]),
                argumentsDelta: arguments?.stringValue ?? arguments?.jsonText ?? "{}"
            )
            toolCallCount += 1
            events.append(.toolCall(delta))
        }
        if json["done"]?.boolValue == true {
            choices.ended = true
            if json["prompt_eval_count"] != nil || json["eval_count"] != nil {
                let input = json["prompt_eval_count"]?.intValue ?? 0
                let output = json["eval_count"]?.intValue ?? 0
                events.append(.usage(ModelUsage(inputTokens: input, outputTokens: output, totalTokens: input + output)))
            }
            let reason = json["done_reason"]?.stringValue ?? "stop"
            events += choices.finish(0, Self.finishReason(reason, calledTools: toolCallCount > 0))
        }
        return events
    }

    private static func finishReason(_ value: String, calledTools: Bool) -> FinishReason {
        switch value {
        case "stop": calledTools ? .toolCalls : .stop
        case "length": .length
        default: .other(value)
        }
    }
}
