import CadenceCore

extension AnswerRequest {
    /// The request as the body of `POST /v1/answers` (and the opening message of the WebSocket and
    /// polling transports): `{"query": …, "history": [{"role": …, "content": …}]}`.
    var jsonBody: String {
        let history: [JSONValue] = history.map { ["role": .string($0.role), "content": .string($0.content)] }
        return JSONValue.object(["query": .string(query), "history": .array(history)]).jsonText
    }
}
