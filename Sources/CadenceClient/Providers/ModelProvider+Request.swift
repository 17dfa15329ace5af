import AsyncHTTPClient
import CadenceCore
import NIOCore
import NIOHTTP1

extension ModelProvider {
    /// The streaming HTTP request for a conversation, in this provider's format.
    func streamingRequest(
        for turns: [ChatTurn], options: ModelRequestOptions = ModelRequestOptions(), httpClient: HTTPClient,
        connectTimeout: Duration
    ) -> StreamingRequest {
        let (path, body) = pathAndBody(for: turns, options: options)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Accept", value: kind == .ollama ? "application/x-ndjson" : "text/event-stream")
        if let apiKey, !apiKey.isEmpty {
            switch kind {
            case .openAI, .openAIResponses, .ollama: headers.add(name: "Authorization", value: "Bearer \(apiKey)")
            case .anthropic: headers.add(name: "x-api-key", value: apiKey)
            case .gemini: headers.add(name: "x-goog-api-key", value: apiKey)
            }
        }
        if kind == .anthropic { headers.add(name: "anthropic-version", value: "2023-06-01") }
        return StreamingRequest(
            httpClient: httpClient, url: baseURL + path, method: .POST, headers: headers, body: body.jsonText,
            connectTimeout: TimeAmount(connectTimeout))
    }

    private func pathAndBody(for turns: [ChatTurn], options: ModelRequestOptions) -> (String, JSONValue) {
        let maxTokens = options.maxTokens ?? self.maxTokens
        let temperature = options.temperature.map(JSONValue.number)
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
            var body: [String: JSONValue] = [
                "model": .string(model), "messages": messages(includingSystem: true), "stream": true,
                "stream_options": ["include_usage": true],
            ]
            if options.json { body["response_format"] = ["type": "json_object"] }
            if let maxTokens = options.maxTokens { body["max_tokens"] = .number(Double(maxTokens)) }
            if let temperature { body["temperature"] = temperature }
            return ("/chat/completions", .object(body))
        case .openAIResponses:
            // System turns stay in `input` (Responses reads them there); the provider's prompt is `instructions`.
            let input: [JSONValue] = turns.map { ["role": .string($0.role), "content": .string($0.content)] }
            var body: [String: JSONValue] = ["model": .string(model), "input": .array(input), "stream": true]
            if let system { body["instructions"] = .string(system) }
            if options.json { body["text"] = ["format": ["type": "json_object"]] }
            if let maxTokens = options.maxTokens { body["max_output_tokens"] = .number(Double(maxTokens)) }
            if let temperature { body["temperature"] = temperature }
            return ("/responses", .object(body))
        case .ollama:
            var body: [String: JSONValue] = [
                "model": .string(model), "messages": messages(includingSystem: true), "stream": true,
            ]
            if options.json { body["format"] = "json" }
            var modelOptions: [String: JSONValue] = [:]
            if let maxTokens = options.maxTokens { modelOptions["num_predict"] = .number(Double(maxTokens)) }
            if let temperature { modelOptions["temperature"] = temperature }
            if !modelOptions.isEmpty { body["options"] = .object(modelOptions) }
            return ("/api/chat", .object(body))
        case .anthropic:
            var body: [String: JSONValue] = [
                "model": .string(model), "messages": messages(includingSystem: false), "stream": true,
                "max_tokens": .number(Double(maxTokens)),
            ]
            if let temperature { body["temperature"] = temperature }
            let systemText = ([system] + turns.filter { $0.role == "system" }.map(\.content)).compactMap { $0 }
            if !systemText.isEmpty { body["system"] = .string(systemText.joined(separator: "\n\n")) }
            return ("/v1/messages", .object(body))
        case .gemini:
            let contents: [JSONValue] = turns.filter { $0.role != "system" }.map { turn in
                ["role": turn.role == "assistant" ? "model" : "user", "parts": [["text": .string(turn.content)]]]
            }
            var body: [String: JSONValue] = ["contents": .array(contents)]
            if let system { body["systemInstruction"] = ["parts": [["text": .string(system)]]] }
            var generation: [String: JSONValue] = [:]
            if options.json { generation["responseMimeType"] = "application/json" }
            if let maxTokens = options.maxTokens { generation["maxOutputTokens"] = .number(Double(maxTokens)) }
            if let temperature { generation["temperature"] = temperature }
            if !generation.isEmpty { body["generationConfig"] = .object(generation) }
            return ("/v1beta/models/\(model):streamGenerateContent?alt=sse", .object(body))
        }
    }
}
