extension AnswerUpdate {
    /// The update as one JSON object, for `--json` output and logs: a `"type"` of `text`,
    /// `reasoning`, `refusal`, `tool_call`, `sources`, `stage`, `reconnecting`, `reconnected`,
    /// `completed`, `failed` or `cancelled`, and the update's fields. A stage carries its research
    /// event as `"event"`, in the wire format. A completion or failure carries `reasoning`,
    /// `refusal` and `tool_calls` when the model gave any.
    ///
    /// ```swift
    /// print(AnswerUpdate.textAppended("Hi").json.jsonText)   // {"text":"Hi","type":"text"}
    /// ```
    public var json: JSONValue {
        switch self {
        case .textAppended(let text):
            return ["type": "text", "text": .string(text)]
        case .reasoningAppended(let text):
            return ["type": "reasoning", "text": .string(text)]
        case .refusalAppended(let text):
            return ["type": "refusal", "text": .string(text)]
        case .toolCallReceived(let call):
            return ["type": "tool_call", "tool_call": call.json]
        case .sourcesMerged(let sources):
            return ["type": "sources", "sources": .array(sources.map(\.json))]
        case .stageChanged(let kind):
            return ["type": "stage", "event": ResearchEvent(kind: kind).json]
        case .reconnecting(let attempt, let delay):
            let milliseconds = delay.milliseconds
            return ["type": "reconnecting", "attempt": .number(Double(attempt)), "delay_ms": .number(milliseconds.rounded())]
        case .reconnected:
            return ["type": "reconnected"]
        case .completed(let completion):
            var members: [String: JSONValue] = [
                "type": "completed", "reason": completion.reason == .timedOut ? "timed_out" : "completed",
                "text": .string(completion.text), "sources": .array(completion.sources.map(\.json)),
                "follow_ups": .array(completion.followUps.map(JSONValue.string)), "metadata": .object(completion.metadata),
            ]
            if let timeout = completion.timeout { members["timeout"] = .string(timeout.name) }
            members.addModelOutput(completion.reasoning, completion.refusal, completion.toolCalls)
            return .object(members)
        case .failed(let failure):
            var members: [String: JSONValue] = [
                "type": "failed", "message": .string(failure.message), "partial_text": .string(failure.partialText),
                "sources": .array(failure.sources.map(\.json)),
            ]
            if let status = failure.status { members["status"] = .number(Double(status)) }
            members.addModelOutput(failure.reasoning, failure.refusal, failure.toolCalls)
            return .object(members)
        case .cancelled(let partialText):
            return ["type": "cancelled", "partial_text": .string(partialText)]
        }
    }
}

extension ToolCall {
    /// The call as `{"id", "name", "arguments"}`, the fields of the `tool_call` event.
    public var json: JSONValue { .object(fields) }

    /// The members of ``json``.
    var fields: [String: JSONValue] {
        ["id": .string(id), "name": .string(name), "arguments": .string(arguments)]
    }
}

extension [String: JSONValue] {
    /// Adds `reasoning`, `refusal` and `tool_calls`, each only when the model gave it.
    fileprivate mutating func addModelOutput(_ reasoning: String, _ refusal: String, _ toolCalls: [ToolCall]) {
        if !reasoning.isEmpty { self["reasoning"] = .string(reasoning) }
        if !refusal.isEmpty { self["refusal"] = .string(refusal) }
        if !toolCalls.isEmpty { self["tool_calls"] = .array(toolCalls.map(\.json)) }
    }
}
