import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceCore
import NIOCore

/// One reader of the relay benchmark: posts a request, decodes the stream as it arrives, and takes
/// for every token the time it was decoded minus the time written at its start.
enum TokenReader {
    struct Result: Sendable {
        var latencies: [Int64]
        /// The stream ended as it should: the model's `[DONE]`, or the relay's `complete`.
        var completed: Bool
    }

    static func modelRequest(url: String, query: String) -> HTTPClientRequest {
        let body: JSONValue = ["model": "timestamp", "stream": true, "messages": [["role": "user", "content": .string(query)]]]
        return post(url, body)
    }

    static func answerRequest(url: String, query: String) -> HTTPClientRequest {
        post(url, ["query": .string(query)])
    }

    private static func post(_ url: String, _ body: JSONValue) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body.jsonText))
        return request
    }

    static func read(
        _ request: HTTPClientRequest, path: RelayBenchmark.Path, client: HTTPClient, capacity: Int
    ) async throws -> Result {
        let response = try await client.execute(request, timeout: .seconds(600))
        guard response.status == .ok else {
            throw BenchmarkError("\(request.url) answered \(response.status.code)")
        }
        var latencies: [Int64] = []
        latencies.reserveCapacity(capacity)
        var completed = false
        var model = ModelStreamDecoder(dialect: .openAIChat)
        var sse = SSEDecoder()
        for try await buffer in response.body {
            let bytes = buffer.readableBytesView
            switch path {
            case .direct:
                let events = try model.feed(bytes)
                let now = monotonicNanoseconds()
                for event in events {
                    switch event {
                    case .text(let text, _): if let stamp = stamp(text) { latencies.append(now - stamp) }
                    case .finish: completed = true
                    default: break
                    }
                }
            case .relayed:
                let items = try sse.feed(bytes)
                let now = monotonicNanoseconds()
                for item in items {
                    guard let event = try ResearchEventDecoder.decode(item) else { continue }
                    switch event.kind {
                    case .token(let text): if let stamp = stamp(text) { latencies.append(now - stamp) }
                    case .complete: completed = true
                    default: break
                    }
                }
            }
        }
        return Result(latencies: latencies, completed: completed)
    }

    /// The time at the start of a token's text.
    static func stamp(_ text: String) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}
