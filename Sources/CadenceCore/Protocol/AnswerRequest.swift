/// A question for an answer engine, with the conversation so far as context.
///
/// This is the JSON body of `POST /v1/answers`:
/// `{"query": "How does resume work?", "history": [{"role": "user", "content": "…"}]}`.
public struct AnswerRequest: Sendable, Hashable, Codable {
    public var query: String
    public var history: [ChatTurn]

    public init(query: String, history: [ChatTurn] = []) {
        self.query = query
        self.history = history
    }

    private enum CodingKeys: String, CodingKey { case query, history }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decode(String.self, forKey: .query)
        history = try container.decodeIfPresent([ChatTurn].self, forKey: .history) ?? []
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
