import CadenceCore

/// A `POST /v1/chat/completions` body in OpenAI's format, read as the ``AnswerRequest`` it asks for.
///
/// The last `user` message is the query; the `user` and `assistant` messages before it are the
/// history, and the `system` (or `developer`) messages, joined, the system prompt. A message's
/// `content` is a string or an array of `{"type": "text", "text": …}` parts. Members Cadence has no
/// use for (`max_tokens`, `temperature`, `tools`, …) are ignored, as OpenAI's own servers ignore
/// members they do not know.
///
/// ```swift
/// let body = try JSONValue(parsing: #"{"model": "m", "stream": true, "messages": [{"role": "user", "content": "Hi"}]}"#)
/// let request = try ChatCompletionRequest(json: body)
/// request.answerRequest.query   // "Hi"
/// ```
struct ChatCompletionRequest: Sendable, Hashable {
    /// The `model` the client named, echoed in every chunk (`cadence` when it named none).
    var model: String
    var answerRequest: AnswerRequest
    /// `stream`: chunks as they come, or one `chat.completion` at the end.
    var stream: Bool
    /// `stream_options.include_usage`: a last chunk with the usage.
    var includeUsage: Bool

    /// The model name used when the request names none.
    static let defaultModel = "cadence"

    /// - Throws: ``APIError`` 400 saying what is wrong with the body.
    init(json: JSONValue) throws(APIError) {
        guard let members = json.objectValue else { throw Self.invalid("the body must be a JSON object") }
        switch members["model"] {
        case nil, .null?: model = Self.defaultModel
        case .string(let name)?: model = name
        default: throw Self.invalid("\"model\" must be a string")
        }
        stream = try Self.flag(members["stream"], name: "stream")
        includeUsage = try Self.flag(members["stream_options"]?["include_usage"], name: "stream_options.include_usage")
        guard let messages = members["messages"]?.arrayValue else {
            throw Self.invalid("\"messages\" must be an array of {\"role\", \"content\"}")
        }
        var turns: [ChatTurn] = []
        var system: [String] = []
        for (index, message) in messages.enumerated() {
            guard case .string(let role)? = message["role"] else {
                throw Self.invalid("messages[\(index)] has no \"role\" string")
            }
            let content = try Self.text(of: message["content"], at: index)
            switch role {
            case "system", "developer": system.append(content)
            case "user", "assistant": turns.append(ChatTurn(role: role, content: content))
            default:
                throw Self.invalid(
                    "messages[\(index)] has the role \"\(role)\"; Cadence takes system, developer, user and assistant "
                        + "messages (it does not run tools)")
            }
        }
        guard let last = turns.lastIndex(where: { $0.role == "user" }) else {
            throw Self.invalid("\"messages\" has no user message: the last user message is the question")
        }
        guard last == turns.count - 1 else {
            throw Self.invalid("the last message must be the user's question; an assistant message after it cannot be continued")
        }
        answerRequest = AnswerRequest(
            query: turns[last].content, history: Array(turns[..<last]),
            system: system.isEmpty ? nil : system.joined(separator: "\n\n"))
    }

    private static func invalid(_ message: String) -> APIError { .badRequest(message) }

    private static func flag(_ value: JSONValue?, name: String) throws(APIError) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let flag)?: flag
        default: throw invalid("\"\(name)\" must be true or false")
        }
    }

    /// A message's text: a string, an array of text parts (joined), or `null` (an assistant message
    /// that only called tools).
    private static func text(of content: JSONValue?, at index: Int) throws(APIError) -> String {
        switch content {
        case nil, .null?: return ""
        case .string(let text)?: return text
        case .array(let parts)?:
            var text = ""
            for part in parts {
                guard part["type"]?.stringValue == "text", let piece = part["text"]?.stringValue else {
                    throw invalid(
                        "messages[\(index)].content has a part that is not {\"type\": \"text\", \"text\": string}; "
                            + "Cadence takes text only")
                }
                text += piece
            }
            return text
        default:
            throw invalid("messages[\(index)].content must be a string or an array of text parts")
        }
    }
}
