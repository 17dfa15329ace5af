/// A question for an answer engine, with the conversation so far as context.
///
/// This is the JSON body of `POST /v1/answers`:
/// `{"query": "How does resume work?", "history": [{"role": "user", "content": "…"}]}`.
public struct AnswerRequest: Sendable, Hashable, Codable {
    public var query: String
    public var history: [ChatTurn]
    /// The system prompt the client asks for (`"system"`, optional): an engine that talks to a model
    /// as a chat sends it as the system message; the corpus and research engines ignore it.
    /// Absent from the JSON when `nil`, so older servers and clients read the request unchanged.
    public var system: String?

    public init(query: String, history: [ChatTurn] = [], system: String? = nil) {
        self.query = query
        self.history = history
        self.system = system
    }

    private enum CodingKeys: String, CodingKey { case query, history, system }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decode(String.self, forKey: .query)
        history = try container.decodeIfPresent([ChatTurn].self, forKey: .history) ?? []
        system = try container.decodeIfPresent(String.self, forKey: .system)
    }
}

/// One earlier turn of a conversation.
public struct ChatTurn: Sendable, Hashable, Codable {
    /// The speaker, `"user"` or `"assistant"` (`"system"` is accepted too), and what was said.
    public var role, content: String

    public init(role: String, content: String) {
        self.role = role
        self.content = content
    }
}
