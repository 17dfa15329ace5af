import CadenceCore

/// Writes an answer's events as OpenAI `chat.completion.chunk` SSE frames, one response's worth:
/// a value-type machine fed the events in order, which returns each event's frame.
///
/// Every frame has `id:` set to the sequence number of the event it came from, so a client that
/// resumes with the last `id:` it saw gets exactly the chunks after it. The response's first chunk
/// carries `delta.role`; `complete` becomes the chunk with `finish_reason`, then (with
/// `include_usage`) a chunk with `choices: []` and `usage`. Those two come from one event, so the
/// finish chunk's id is the sequence with ``finishSuffix`` (`41:finish`): a client cut between the
/// two resumes after it and gets only the usage chunk, neither losing it nor doubling the finish; `error` becomes an `{"error": …}` chunk,
/// which OpenAI's client libraries raise as an error. The frames have no `event:` field: OpenAI's
/// Python library treats an event with one as another kind of stream.
///
/// ```swift
/// var chunks = ChatCompletionChunks(answerID: "ans_1", model: "m", created: 0, includeUsage: false)
/// chunks.frame(for: ResearchEvent(sequence: 4, kind: .token("Hi")))   // "id: 4\ndata: {…\"content\":\"Hi\"…}\n\n"
/// ChatCompletionChunks.done                                             // "data: [DONE]\n\n"
/// ```
struct ChatCompletionChunks: Sendable {
    /// `chatcmpl-` and the answer id: the `id` of every chunk.
    let completionID: String
    let model: String
    /// Unix time in seconds, the same in every chunk of the response.
    let created: Int
    let includeUsage: Bool
    private var sentRole = false
    /// The `index` of the next tool call: the number of tool calls the answer made before it.
    private(set) var toolCallIndex: Int
    private var calledTools: Bool

    /// The frame that ends every stream.
    static let done = "data: [DONE]\n\n"
    /// What follows the sequence in the finish chunk's `id:` when a usage chunk comes after it.
    static let finishSuffix = ":finish"
    /// Whether the first `complete` this response meets already had its finish chunk sent (a
    /// resume after `N:finish`): it then sends only the usage chunk.
    private var finishSent: Bool

    /// - Parameters:
    ///   - toolCallsBefore: how many tool calls the answer made before the first event this
    ///     response sends (a resumed stream numbers the next one after them).
    ///   - finishSent: the client has the finish chunk of the first event this response sends (it
    ///     resumed after `N:finish`), so only its usage chunk is sent.
    init(
        answerID: String, model: String, created: Int, includeUsage: Bool, toolCallsBefore: Int = 0,
        finishSent: Bool = false
    ) {
        completionID = ChatCompletionRoutes.completionID(answerID)
        self.model = model
        self.created = created
        self.includeUsage = includeUsage
        toolCallIndex = toolCallsBefore
        calledTools = toolCallsBefore > 0
        self.finishSent = finishSent
    }

    /// The SSE frames for one event (empty for an event OpenAI has no place for, or without a sequence).
    mutating func frame(for event: ResearchEvent) -> String {
        guard let sequence = event.sequence, let part = ChatCompletionPart(event.kind) else { return "" }
        let chunks = chunks(for: part)
        return chunks.indices.map { index in
            // Only a finish chunk is ever followed by another chunk of the same event.
            let id = index < chunks.count - 1 ? "\(sequence)\(Self.finishSuffix)" : "\(sequence)"
            return "id: \(id)\ndata: \(chunks[index].jsonText)\n\n"
        }.joined()
    }

    /// The chunk objects of one part, in order.
    mutating func chunks(for part: ChatCompletionPart) -> [JSONValue] {
        switch part {
        case .content(let text): return [chunk(delta: ["content": .string(text)])]
        case .reasoning(let text): return [chunk(delta: ["reasoning_content": .string(text)])]
        case .refusal(let text): return [chunk(delta: ["refusal": .string(text)])]
        case .toolCall(let call):
            let delta: [String: JSONValue] = ["tool_calls": [Self.toolCall(call, index: toolCallIndex)]]
            toolCallIndex += 1
            calledTools = true
            return [chunk(delta: delta)]
        case .finished(let reason, let usage, _):
            var chunks: [JSONValue] = []
            if !finishSent || !includeUsage {
                chunks.append(chunk(delta: [:], finishReason: ChatCompletionPart.finishReason(reason, calledTools: calledTools)))
            }
            finishSent = false
            if includeUsage { chunks.append(envelope(choices: [], usage: usage ?? .null)) }
            return chunks
        case .failed(let error): return [error.openAIError]
        }
    }

    /// A tool call as OpenAI writes it in `tool_calls`.
    static func toolCall(_ call: ToolCall, index: Int?) -> JSONValue {
        var object: JSONValue = [
            "id": .string(call.id), "type": "function",
            "function": ["name": .string(call.name), "arguments": .string(call.arguments)],
        ]
        if let index, case .object(var members) = object {
            members["index"] = .number(Double(index))
            object = .object(members)
        }
        return object
    }

    private mutating func chunk(delta: [String: JSONValue], finishReason: String? = nil) -> JSONValue {
        var delta = delta
        if !sentRole {
            delta["role"] = "assistant"
            sentRole = true
        }
        let choice: JSONValue = [
            "index": 0, "delta": .object(delta), "logprobs": nil, "finish_reason": finishReason.map(JSONValue.string) ?? nil,
        ]
        return envelope(choices: [choice], usage: nil)
    }

    private func envelope(choices: [JSONValue], usage: JSONValue?) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(completionID), "object": "chat.completion.chunk", "created": .number(Double(created)),
            "model": .string(model), "choices": .array(choices),
        ]
        // With include_usage, OpenAI sends `usage: null` in every chunk but the last.
        if includeUsage { members["usage"] = usage ?? .null }
        return .object(members)
    }
}
