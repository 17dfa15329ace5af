import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTesting
import NIOCore
import NIOHTTP1
import Testing

/// `--max-answers` and the answer ids, against the real server over real sockets.
@Suite("Answer limits and ids")
struct AnswerLimitsTests {
    /// The corpus engine slowed so far that its answers stay open until cancelled.
    static let heldEngine = CorpusEngine(corpus: try! Corpus.bundled(), tokenDelay: .seconds(3600), stageDelay: .zero)

    /// Posts a question and returns the status, headers and (for a refusal) the JSON body,
    /// without reading an answer's stream.
    static func post(_ url: String, _ body: String = #"{"query":"How does resume work?"}"#) async throws
        -> (status: Int, headers: HTTPHeaders, json: JSONValue?)
    {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        guard response.status != .ok else { return (200, response.headers, nil) }
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), response.headers, try? JSONValue(parsing: String(buffer: bytes)))
    }

    @Test func answersPastTheLimitAreRefusedWith503AndRetryAfterUntilOneEnds() async throws {
        var configuration = ServerConfiguration()
        configuration.maxAnswers = 2
        try await withServer(engine: Self.heldEngine, configuration: configuration) { server in
            let sse = SSETransport(baseURL: server.baseURL)
            let first = try await sse.open(AnswerRequest(query: "How does resume work?"), resume: nil)
            let second = try await sse.open(AnswerRequest(query: "What is SSE?"), resume: nil)
            _ = second

            let refused = try await Self.post(server.baseURL + "/v1/answers")
            #expect(refused.status == 503)
            #expect(refused.headers.first(name: "retry-after") == "1")
            #expect(refused.json?["error"]?["code"]?.stringValue == "server_busy")
            #expect(refused.json?["error"]?["message"]?.stringValue?.contains("limit of 2 answers") == true)
            // The polling transport's POST counts against the same limit.
            let polled = try await Self.post(server.baseURL + "/v1/conversations/c1/messages")
            #expect(polled.status == 503)

            // Cancelling one frees its place.
            let id = try #require(first.answerID)
            let (status, _) = try await AnswerCancelTests.delete(server, id)
            #expect(status == 200)
            let admitted = try await Self.post(server.baseURL + "/v1/answers")
            #expect(admitted.status == 200)
        }
    }

    @Test func aWebSocketAskPastTheLimitHearsWhy() async throws {
        var configuration = ServerConfiguration()
        configuration.maxAnswers = 1
        try await withServer(engine: Self.heldEngine, configuration: configuration) { server in
            _ = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "What is SSE?"), resume: nil)
            let (_, received) = await openAndReceive(
                WebSocketTransport(baseURL: server.baseURL), AnswerRequest(query: "How does resume work?"))
            let error = try #require(received.clientError)
            #expect(error.status == 503)
            #expect(error.message.contains("limit of 1 answers"))
        }
    }

    @Test func answerIDsCarry128RandomBitsAndNeverRepeat() async throws {
        try await withServer(engine: instantEngine) { server in
            var ids: Set<String> = []
            for index in 0..<40 {
                let connection = try await SSETransport(baseURL: server.baseURL).open(
                    AnswerRequest(query: "question \(index)"), resume: nil)
                let id = try #require(connection.answerID)
                #expect(id.hasPrefix("ans_"))
                let hex = id.dropFirst(4)
                #expect(hex.count == 32, "128 bits are 32 hex digits: \(id)")
                #expect(hex.allSatisfy { $0.isHexDigit && !$0.isUppercase })
                ids.insert(id)
                _ = await receive(connection)
            }
            #expect(ids.count == 40)
            // Every bit position varies across the ids: none is a counter's fixed high bits.
            let values = ids.map { Array($0.dropFirst(4)) }
            let varying = (0..<32).filter { position in Set(values.map { $0[position] }).count > 1 }
            #expect(varying.count == 32)
        }
    }
}
