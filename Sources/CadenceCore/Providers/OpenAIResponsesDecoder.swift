/// Decodes OpenAI Responses API streams into ``ModelEvent``s.
///
/// Dispatches on the event's `type` (the SSE `event:` name when the JSON has none):
/// `response.output_text.delta` → text, `response.refusal.delta` → refusal,
/// `response.reasoning_text.delta` and `response.reasoning_summary_text.delta` → reasoning,
/// `function_call` output items and `response.function_call_arguments.delta` → tool calls.
/// The stream ends on `response.completed` (``FinishReason/stop``, or ``FinishReason/toolCalls`` when
/// the response called tools), `response.incomplete` (`max_output_tokens` → ``FinishReason/length``,
/// `content_filter` → ``FinishReason/contentFilter``) or `response.failed` (an error, then
/// ``FinishReason/error``), each with its usage. An `error` event gives an error and
/// ``FinishReason/error``. An event whose `sequence_number` is not above the last one seen is a
/// replay and is skipped. The Responses API has a single choice, 0.
///
/// ```swift
/// var decoder = OpenAIResponsesDecoder()
/// decoder.decode(SSEEvent(type: "response.output_text.delta", data: #"{"delta":"Hey"}"#))
/// // [.text("Hey", choice: 0)]
/// ```
public struct OpenAIResponsesDecoder: Sendable {
    private var choices = ChoiceTracker()
    private var reportedError = false
    private var lastSequenceNumber: Int?
    /// Tool-call index by `output_index`.
    private var toolCallIndexes: [Int: Int] = [:]

    public init() {}

    /// Decodes one SSE event: an ``SSEEvent``, or an ``SSEBatch`` event read from its bytes.
    public mutating func decode(_ event: some SSEDataEvent) -> [ModelEvent] { decode(event: event) }

    /// Ends the stream: without a terminal `response.*` event the answer finishes as
    /// ``FinishReason/truncated``.
    public mutating func finish() -> [ModelEvent] { choices.finishAtClose() }
}

extension OpenAIResponsesDecoder: ProviderPayloadDecoder {
    static var dialect: ModelDialect { .openAIResponses }

    mutating func decode(sentinel: ProviderPayload) -> [ModelEvent]? { sentinel.isExactly("[DONE]") ? [] : nil }

    mutating func decode(json: JSONValue, eventType: String, payload: ProviderPayload) -> [ModelEvent] {
        if let sequence = json["sequence_number"]?.intValue {
            if let last = lastSequenceNumber, sequence <= last { return [] }
            lastSequenceNumber = sequence
        }
        choices.note(0)
        let type = json["type"]?.stringValue ?? eventType
        switch type {
        case "response.output_text.delta":
            return Self.nonEmpty(json["delta"]).map { [.text($0)] } ?? []
        case "response.refusal.delta":
            return Self.nonEmpty(json["delta"]).map { [.refusal($0)] } ?? []
        case "response.reasoning_text.delta", "response.reasoning_summary_text.delta":
            return Self.nonEmpty(json["delta"]).map { [.reasoning($0)] } ?? []
        case "response.output_item.added":
            return toolCallStarted(json)
        case "response.function_call_arguments.delta":
            guard let output = json["output_index"]?.intValue, let index = toolCallIndexes[output],
                let delta = Self.nonEmpty(json["delta"])
            else { return [] }
            return [.toolCall(ToolCallDelta(index: index, argumentsDelta: delta))]
        case "response.completed":
            return ended(json["response"], reason: toolCallIndexes.isEmpty ? .stop : .toolCalls)
        case "response.incomplete":
            let reason = json["response"]?["incomplete_details"]?["reason"]?.stringValue
            return ended(json["response"], reason: Self.incompleteReason(reason))
        case "response.failed":
            let error = json["response"]?["error"].flatMap { $0 == .null ? nil : $0 }
            var events: [ModelEvent] = []
            if !reportedError {
                reportedError = true
                let failure = error.flatMap { ModelError(providerJSON: ["error": $0]) }
                events.append(.error(failure ?? ModelError(message: "openai-responses: response.failed")))
            }
            return events + ended(json["response"], reason: .error)
        case "error":
            return failed(Self.reportedError(json, payload: payload))
        default:
            // A proxy's `{"error":{…}}` without a type is an error too; other new types are ignored.
            guard json["type"] == nil, let error = ModelError(providerJSON: json) else { return [] }
            return failed(error)
        }
    }

    private mutating func failed(_ error: ModelError) -> [ModelEvent] {
        reportedError = true
        return [.error(error)] + choices.finishUnfinished(.error)
    }

    private mutating func toolCallStarted(_ json: JSONValue) -> [ModelEvent] {
        guard let item = json["item"], item["type"]?.stringValue == "function_call" else { return [] }
        let output = json["output_index"]?.intValue ?? toolCallIndexes.count
        let index = toolCallIndexes[output] ?? toolCallIndexes.count
        toolCallIndexes[output] = index
        let call = ToolCallDelta(
            index: index,
            id: Self.nonEmpty(item["call_id"]) ?? Self.nonEmpty(item["id"]),
            name: Self.nonEmpty(item["name"]),
            argumentsDelta: item["arguments"]?.stringValue ?? ""
        )
        return [.toolCall(call)]
    }

    private mutating func ended(_ response: JSONValue?, reason: FinishReason) -> [ModelEvent] {
        var events: [ModelEvent] = []
        if let usage = response?["usage"], usage.objectValue != nil {
            events.append(.usage(ModelUsage(openAI: usage, input: "input_tokens", output: "output_tokens")))
        }
        return events + choices.endStream(reason)
    }

    private static func incompleteReason(_ reason: String?) -> FinishReason {
        switch reason {
        case "max_output_tokens": .length
        case "content_filter": .contentFilter
        case let reason?: .other(reason)
        case nil: .truncated
        }
    }
}
