import CadenceCore
import HTTPTypes

/// What one event of an answer means to an OpenAI client: a piece of the message, its end, or a
/// failure. Research stages, `: flush-tokens` and unknown events mean nothing to it (`nil`).
///
/// Both forms of the OpenAI-compatible endpoint read the answer through this one mapping: the
/// stream (``ChatCompletionChunks``) writes each part as a chunk, the single object
/// (``ChatCompletionMessage``) folds them.
enum ChatCompletionPart: Sendable {
    /// `token`: answer text (`content`).
    case content(String)
    /// `reasoning`: the model's visible reasoning (`reasoning_content`).
    case reasoning(String)
    /// `refusal`: the model's refusal (`refusal`).
    case refusal(String)
    /// `tool_call`: a whole tool call (`tool_calls`).
    case toolCall(ToolCall)
    /// `complete`: the answer ended; `finish_reason`, `usage` and `model` as the engine reported them.
    case finished(reason: String?, usage: JSONValue?, model: String?)
    /// `error`: the answer failed, as the error an OpenAI client raises.
    case failed(APIError)

    init?(_ kind: ResearchEvent.Kind) {
        switch kind {
        case .token(let text): self = .content(text)
        case .reasoning(let text): self = .reasoning(text)
        case .refusal(let text): self = .refusal(text)
        case .toolCall(let call): self = .toolCall(call)
        case .complete(let completion):
            self = .finished(
                reason: completion.metadata["finish_reason"]?.stringValue,
                usage: completion.metadata["usage"].flatMap(Self.usage),
                model: completion.metadata["model"]?.stringValue)
        case .error(let code, let message): self = .failed(Self.failure(code: code, message: message))
        default: return nil
        }
    }

    /// OpenAI's `finish_reason` for the engine's `metadata.finish_reason`: `stop`, `length`,
    /// `tool_calls` or `content_filter`, whatever dialect the model spoke (Anthropic's `max_tokens`,
    /// Gemini's `SAFETY`, …). Without one, `tool_calls` if the model called tools, else `stop`.
    static func finishReason(_ reported: String?, calledTools: Bool) -> String {
        switch reported?.lowercased() {
        case "length", "max_tokens", "max_output_tokens", "model_length", "max_length": "length"
        case "tool_calls", "tool_use", "function_call", "tool_call": "tool_calls"
        case "content_filter", "safety", "refusal", "recitation", "blocklist", "prohibited_content", "spii",
            "image_safety":
            "content_filter"
        case nil: calledTools ? "tool_calls" : "stop"
        default: "stop"
        }
    }

    /// OpenAI's `usage` for the engine's `metadata.usage` (`input_tokens`, `output_tokens`), or `nil`
    /// when it is not an object with at least one of them.
    static func usage(_ reported: JSONValue) -> JSONValue? {
        let input = reported["input_tokens"]?.intValue
        let output = reported["output_tokens"]?.intValue
        guard input != nil || output != nil else { return nil }
        let (prompt, completion) = (input ?? 0, output ?? 0)
        return [
            "prompt_tokens": .number(Double(prompt)), "completion_tokens": .number(Double(completion)),
            "total_tokens": .number(Double(prompt + completion)),
        ]
    }

    /// The error an answer that ended with `error` `code` is to an OpenAI client. The status is the
    /// one a single `chat.completion` is refused with (an OpenAI client picks its exception by it):
    /// the model's failures are a bad gateway (502; 504 for its silence), a lost node is 503 (worth
    /// retrying), a cancelled answer 409, and anything else 500.
    static func failure(code: String, message: String) -> APIError {
        let status: HTTPResponse.Status =
            switch code {
            case "model_failed", "model_error", "model_truncated": .badGateway
            case "model_timeout": .gatewayTimeout
            case "interrupted": .serviceUnavailable
            case "cancelled": .conflict
            default: .internalServerError
            }
        return APIError(status: status, code: code, message: message)
    }
}
