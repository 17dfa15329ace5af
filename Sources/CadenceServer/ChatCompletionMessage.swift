import CadenceCore

/// An answer folded into one OpenAI `chat.completion` object (`stream: false`): fed the answer's
/// parts in order, it holds the message so far, and once the answer has ended, the object or the
/// error the answer ended with.
///
/// ```swift
/// var message = ChatCompletionMessage()
/// message.add(.content("Hel"))
/// message.add(.content("lo"))
/// message.add(.finished(reason: "stop", usage: nil, model: nil))
/// try message.object(answerID: "ans_1", model: "m", created: 0)   // {"object": "chat.completion", …}
/// ```
struct ChatCompletionMessage: Sendable {
    private var content = ""
    private var reasoning = ""
    private var refusal = ""
    private var toolCalls: [JSONValue] = []
    /// The `complete` part, once the answer has ended with one.
    private var finished: (reason: String?, usage: JSONValue?, model: String?)?
    private var failure: APIError?

    /// Whether the answer has ended (`complete` or `error`).
    var isFinished: Bool { finished != nil || failure != nil }

    mutating func add(_ part: ChatCompletionPart) {
        switch part {
        case .content(let text): content += text
        case .reasoning(let text): reasoning += text
        case .refusal(let text): refusal += text
        case .toolCall(let call): toolCalls.append(ChatCompletionChunks.toolCall(call, index: nil))
        case .finished(let reason, let usage, let model): finished = (reason, usage, model)
        case .failed(let error): failure = error
        }
    }

    /// The `chat.completion` object of the ended answer `answerID`, in which the model the engine
    /// reported replaces the one the request named.
    ///
    /// - Throws: ``APIError``: the error the answer ended with, or 500 if it has not ended.
    func object(answerID: String, model: String, created: Int) throws(APIError) -> JSONValue {
        if let failure { throw failure }
        guard let finished else {
            throw APIError(
                status: .internalServerError, code: "answer_unfinished",
                message: "the answer \"\(answerID)\" stopped without an end")
        }
        var message: [String: JSONValue] = ["role": "assistant", "content": .string(content)]
        if !reasoning.isEmpty { message["reasoning_content"] = .string(reasoning) }
        message["refusal"] = refusal.isEmpty ? .null : .string(refusal)
        if !toolCalls.isEmpty { message["tool_calls"] = .array(toolCalls) }
        let finishReason = ChatCompletionPart.finishReason(finished.reason, calledTools: !toolCalls.isEmpty)
        let choice: JSONValue = [
            "index": 0, "message": .object(message), "logprobs": nil, "finish_reason": .string(finishReason),
        ]
        return [
            "id": .string(ChatCompletionRoutes.completionID(answerID)), "object": "chat.completion",
            "created": .number(Double(created)), "model": .string(finished.model ?? model), "choices": [choice],
            "usage": finished.usage ?? .null,
        ]
    }
}
