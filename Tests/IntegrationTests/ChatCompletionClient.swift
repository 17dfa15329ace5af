import AsyncHTTPClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTestFixtures
import NIOCore
import NIOHTTP1

/// One SSE frame of an OpenAI-compatible stream: its `id:` (if any) and its `data:` payload.
struct ChatFrame: Sendable, Equatable {
    /// The sequence in `id:` (`41`, and `41` for a finish chunk's `41:finish`).
    var id: Int?
    /// `id:` as sent.
    var rawID: String?
    var data: String
    var hasEventField: Bool

    /// The payload as JSON (`nil` for `[DONE]`).
    var json: JSONValue? { try? JSONValue(parsing: data) }
    /// The chunk's first choice's delta.
    var delta: JSONValue? { json?["choices"]?.arrayValue?.first?["delta"] }
}

/// What a response of `/v1/chat/completions` held, read whole over a real socket.
struct ChatResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var bytes: [UInt8]

    var body: String { String(decoding: bytes, as: UTF8.self) }
    var json: JSONValue? { try? JSONValue(parsing: body) }
    var answerID: String? { headers.first(name: "Cadence-Answer-ID") }

    /// The SSE frames the bytes complete (comments left out).
    var frames: [ChatFrame] { ChatFrames.parse(bytes) }
}

enum ChatFrames {
    /// The complete frames of `bytes` (a frame ends with a blank line; the server ends lines with LF
    /// only), comments left out. Read field by field, so a frame without its own `id:` has `id` nil
    /// (an SSE decoder would carry the last one over).
    static func parse(_ bytes: [UInt8]) -> [ChatFrame] {
        let text = String(decoding: bytes, as: UTF8.self)
        var frames: [ChatFrame] = []
        var blocks = text.components(separatedBy: "\n\n")
        blocks.removeLast()  // what follows the last blank line is not a whole frame
        for block in blocks {
            var frame = ChatFrame(id: nil, rawID: nil, data: "", hasEventField: false)
            var hasData = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("id: ") {
                    frame.rawID = String(line.dropFirst(4))
                    frame.id = frame.rawID?.split(separator: ":").first.flatMap { Int($0) }
                }
                if line.hasPrefix("event:") { frame.hasEventField = true }
                if line.hasPrefix("data: ") {
                    frame.data += line.dropFirst(6)
                    hasData = true
                }
            }
            if hasData { frames.append(frame) }
        }
        return frames
    }

    /// The concatenated `delta.content` of the chunks.
    static func content(_ frames: [ChatFrame]) -> String {
        frames.compactMap { $0.delta?["content"]?.stringValue }.joined()
    }
}

/// A client of the OpenAI-compatible routes: plain HTTP requests, bodies read whole.
enum ChatClient {
    static func send(
        _ method: HTTPMethod, _ url: String, body: String? = nil, headers: [(String, String)] = [],
        authorization: String? = nil
    ) async throws -> ChatResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        let sent = request
        return try await withDeadline(.seconds(60), "\(method) \(url)") {
            let response = try await AnswerClient.client.execute(sent, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 << 20)
            return ChatResponse(
                status: Int(response.status.code), headers: response.headers, bytes: Array(body.readableBytesView))
        }
    }

    /// `POST /v1/chat/completions` with `body`.
    static func complete(_ server: RunningServer, _ body: String, authorization: String? = nil) async throws -> ChatResponse {
        try await send(.POST, server.baseURL + "/v1/chat/completions", body: body, authorization: authorization)
    }

    /// A request body with one user message.
    static func body(_ question: String, stream: Bool, includeUsage: Bool = false, model: String = "test-model") -> String {
        let usage = includeUsage ? #","stream_options":{"include_usage":true}"# : ""
        let question = JSONValue.string(question).jsonText
        return #"{"model":"\#(model)","stream":\#(stream)\#(usage),"messages":[{"role":"user","content":\#(question)}]}"#
    }

    /// The answer's text as `/v1/answers/{id}/events` serves it.
    static func answerText(_ server: RunningServer, _ id: String, authorization: String? = nil) async throws -> (
        text: String, events: [ResearchEvent]
    ) {
        let response = try await send(.GET, server.baseURL + "/v1/answers/\(id)/events", authorization: authorization)
        var decoder = SSEDecoder()
        let events = try decoder.feed(response.bytes).compactMap { try ResearchEventDecoder.decode($0) }
            .filter { $0.sequence != nil }
        let text = events.map { event in if case .token(let piece) = event.kind { piece } else { "" } }.joined()
        return (text, events)
    }
}

/// An engine that gives every request the same events.
struct ListedEngine: AnswerEngine {
    var kinds: [ResearchEvent.Kind]

    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        AsyncThrowingStream { continuation in
            for kind in kinds { continuation.yield(kind) }
            continuation.finish()
        }
    }
}

/// An engine that answers with the request it was given, as JSON in one token.
struct EchoEngine: AnswerEngine {
    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        let history: [JSONValue] = request.history.map { ["role": .string($0.role), "content": .string($0.content)] }
        let echo: JSONValue = [
            "query": .string(request.query), "history": .array(history), "system": request.system.map(JSONValue.string) ?? nil,
        ]
        return AsyncThrowingStream { continuation in
            continuation.yield(.token(echo.jsonText))
            continuation.yield(.complete(Completion()))
            continuation.finish()
        }
    }
}

extension JSONValue {
    /// The element at `index` of an array (nil for anything else, or out of range).
    subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
