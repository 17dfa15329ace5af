import AsyncHTTPClient
import CadenceCore
import NIOCore

extension ModelProvider {
    /// The streaming HTTP request for a conversation, in this provider's format.
    func streamingRequest(for turns: [ChatTurn]) -> HTTPClientRequest {
        let (path, body) = pathAndBody(for: turns)
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: kind == .ollama ? "application/x-ndjson" : "text/event-stream")
        if let apiKey, !apiKey.isEmpty {
            switch kind {
            case .openAI, .ollama: request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
            case .anthropic: request.headers.add(name: "x-api-key", value: apiKey)
            case .gemini: request.headers.add(name: "x-goog-api-key", value: apiKey)
            }
        }
        if kind == .anthropic { request.headers.add(name: "anthropic-version", value: "2023-06-01") }
        request.body = .bytes(ByteBuffer(string: body.jsonText))
        return request
    }

    private func pathAndBody(for turns: [ChatTurn]) -> (String, JSONValue) {
        func messages(includingSystem: Bool) -> JSONValue {
            var list: [JSONValue] = []
            if includingSystem, let system { list.append(["role": "system", "content": .string(system)]) }
            for turn in turns where turn.role != "system" || includingSystem {
                list.append(["role": .string(turn.role), "content": .string(turn.content)])
            }
            return .array(list)
        }
        switch kind {
        case .openAI:
            return (
                "/chat/completions",
                [
                    "model": .string(model), "messages": messages(includingSystem: true), "stream": true,
                    "stream_options": ["include_usage": true],
                ]
            )
        case .ollama:
            return ("/api/chat", ["model": .string(model), "messages": messages(includingSystem: true), "stream": true])
        case .anthropic:
            var body: [String: JSONValue] = [
                "model": .string(model), "messages": messages(includingSystem: false), "stream": true,
                "max_tokens": .number(Double(maxTokens)),
            ]
            let systemText = ([system] + turns.filter { $0.role == "system" }.map(\.content)).compactMap { $0 }
            if !systemText.isEmpty { body["system"] = .string(systemText.joined(separator: "\n\n")) }
            return ("/v1/messages", .object(body))
        case .gemini:
            let contents: [JSONValue] = turns.filter { $0.role != "system" }.map { turn in
                ["role": turn.role == "assistant" ? "model" : "user", "parts": [["text": .string(turn.content)]]]
            }
            var body: [String: JSONValue] = ["contents": .array(contents)]
            if let system { body["systemInstruction"] = ["parts": [["text": .string(system)]]] }
            return ("/v1beta/models/\(model):streamGenerateContent?alt=sse", .object(body))
        }
    }
}
