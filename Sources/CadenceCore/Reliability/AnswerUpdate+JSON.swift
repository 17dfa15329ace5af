extension AnswerUpdate {
    /// The update as one JSON object, for `--json` output and logs: a `"type"` of `text`,
    /// `sources`, `stage`, `reconnecting`, `reconnected`, `completed`, `failed` or `cancelled`,
    /// and the update's fields. A stage carries its research event as `"event"`, in the wire format.
    ///
    /// ```swift
    /// print(AnswerUpdate.textAppended("Hi").json.jsonText)   // {"text":"Hi","type":"text"}
    /// ```
    public var json: JSONValue {
        switch self {
        case .textAppended(let text):
            return ["type": "text", "text": .string(text)]
        case .sourcesMerged(let sources):
            return ["type": "sources", "sources": .array(sources.map(\.json))]
        case .stageChanged(let kind):
            return ["type": "stage", "event": ResearchEvent(kind: kind).json]
        case .reconnecting(let attempt, let delay):
            let milliseconds = Double(delay.components.seconds) * 1000 + Double(delay.components.attoseconds) / 1e15
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
            return .object(members)
        case .failed(let failure):
            var members: [String: JSONValue] = [
                "type": "failed", "message": .string(failure.message), "partial_text": .string(failure.partialText),
                "sources": .array(failure.sources.map(\.json)),
            ]
            if let status = failure.status { members["status"] = .number(Double(status)) }
            return .object(members)
        case .cancelled(let partialText):
            return ["type": "cancelled", "partial_text": .string(partialText)]
        }
    }
}
