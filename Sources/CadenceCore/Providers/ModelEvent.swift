/// One normalized event from a model's stream, whatever provider produced it.
///
/// Every dialect decoder (``OpenAIChatDecoder``, ``OpenAIResponsesDecoder``, ``AnthropicDecoder``,
/// ``GeminiDecoder``, ``OllamaDecoder``) turns its provider's wire format into these values, so the
/// pacer, the markdown renderer and the UI never care where the text came from.
///
/// Choices (`n > 1` in OpenAI, several candidates in Gemini) are kept apart by `choice`; the default
/// answer is choice 0. Each choice that appears in a stream ends with exactly one ``finish(_:choice:)``,
/// and a stream that stops without its terminator ends with ``FinishReason/truncated`` for every
/// unfinished choice, after the partial text it did carry.
///
/// ```swift
/// var decoder = ModelStreamDecoder(dialect: .anthropic)
/// for event in try decoder.feed(bytes) + decoder.finish() {
///     switch event {
///     case .text(let delta, choice: 0): print(delta, terminator: "")
///     case .finish(let reason, _): print("\n[\(reason.name)]")
///     case .error(let error): print("error:", error.message)
///     default: break
///     }
/// }
/// ```
public enum ModelEvent: Sendable, Hashable {
    /// A piece of answer text.
    case text(String, choice: Int = 0)
    /// A piece of the model's visible reasoning ("thinking", `reasoning_content`, thought parts).
    case reasoning(String, choice: Int = 0)
    /// A piece of a refusal message, which some providers stream apart from the text.
    case refusal(String, choice: Int = 0)
    /// A piece of a tool call; fragments with the same choice and index belong to one call.
    case toolCall(ToolCallDelta)
    /// Token counts so far; a later usage event replaces an earlier one.
    case usage(ModelUsage)
    /// The end of one choice.
    case finish(FinishReason, choice: Int = 0)
    /// A failure reported inside the stream, or content that could not be read.
    case error(ModelError)

    /// The choice this event belongs to, or `nil` for usage and errors, which concern the whole stream.
    public var choice: Int? {
        switch self {
        case .text(_, let choice), .reasoning(_, let choice), .refusal(_, let choice), .finish(_, let choice):
            return choice
        case .toolCall(let call):
            return call.choice
        case .usage, .error:
            return nil
        }
    }
}
