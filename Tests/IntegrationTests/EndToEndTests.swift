import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceServer
import Foundation
import NIOCore
import Testing

@Suite("End to end over loopback")
struct EndToEndTests {
    @Test("a real answer streams from the real server through the real client")
    func streamsACitedAnswer() async throws {
        try await withServer { server in
            #expect(server.port > 0)
            let client = SSETransport(baseURL: server.baseURL)
            var events: [ResearchEvent] = []
            for try await event in client.answer(AnswerRequest(query: "How does resume with Last-Event-ID work?")) {
                events.append(event)
            }
            var text = ""
            var sources: [Source] = []
            for event in events {
                if case .token(let token) = event.kind { text += token }
                if case .sourcesReady(let ready) = event.kind { sources = ready }
            }
            #expect(!text.isEmpty)
            #expect(!sources.isEmpty)
            // Every citation in the text points at a source the server sent.
            let cited = Set(text.matches(of: /\[(\d+)\]/).map { String($0.1) })
            #expect(!cited.isEmpty)
            #expect(cited.isSubset(of: Set(sources.map(\.id))))
            // Sequence numbers count up from 1 without gaps; the stream ends with `complete`.
            let sequences = events.compactMap(\.sequence)
            #expect(sequences == numbered(sequences.count))
            guard case .complete(let completion) = events.last?.kind else {
                Issue.record("the last event is not complete: \(String(describing: events.last))")
                return
            }
            #expect(completion.sources == sources)
            // The stages come before the text.
            let firstToken = events.firstIndex { if case .token = $0.kind { true } else { false } }!
            let searching = events.firstIndex { if case .searching = $0.kind { true } else { false } }!
            #expect(searching < firstToken)
            #expect(events.contains { $0.kind == .flushTokens })
        }
    }

    @Test("a question with no matching source gets an honest answer and no sources")
    func nothingFound() async throws {
        try await withServer { server in
            var text = ""
            var completion: Completion?
            for try await event in SSETransport(baseURL: server.baseURL).answer(
                AnswerRequest(query: "xylophone zeppelin quokka"))
            {
                if case .token(let token) = event.kind { text += token }
                if case .complete(let done) = event.kind { completion = done }
            }
            #expect(completion?.sources == [])
            #expect(!text.contains("["))
            #expect(text.lowercased().contains("couldn"))
        }
    }

    @Test("the stream has the SSE headers")
    func headers() async throws {
        try await withServer { server in
            var request = HTTPClientRequest(url: server.baseURL + "/v1/answers")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"query":"keepalive"}"#))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            #expect(response.headers["content-type"].first?.hasPrefix("text/event-stream") == true)
            #expect(response.headers["cache-control"].first == "no-cache")
            #expect(response.headers["x-accel-buffering"].first == "no")
            let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
            #expect(body.hasPrefix("event: "))
            #expect(body.contains("\nid: 1\n"))
        }
    }

    @Test(
        "bad requests get a JSON error with a message",
        arguments: [
            (#"not json"#, 400, "JSON"),
            (#"{"history":[]}"#, 400, "query"),
            (#"{"query":"   "}"#, 400, "empty"),
            (#"{"query":5}"#, 400, "query"),
            ("{\"query\":\"" + String(repeating: "a", count: 5000) + "\"}", 413, "limit"),
        ])
    func badRequests(body: String, status: Int, mentions: String) async throws {
        try await withServer { server in
            let client = SSETransport(baseURL: server.baseURL)
            var request = HTTPClientRequest(url: server.baseURL + "/v1/answers")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await client.httpClient.execute(request, timeout: .seconds(30))
            #expect(Int(response.status.code) == status)
            let text = String(buffer: try await response.body.collect(upTo: 1 << 16))
            let json = try JSONValue(parsing: text)
            let message = json["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains(mentions), "message: \(message)")
        }
    }

    @Test("an HTTP error status reaches the client as a typed error with status and body")
    func typedHTTPError() async throws {
        try await withServer { server in
            let client = SSETransport(baseURL: server.baseURL)
            await #expect {
                for try await _ in client.answer(AnswerRequest(query: "  ")) {}
            } throws: { error in
                guard let error = error as? CadenceClientError else { return false }
                return error.code == .httpStatus && error.status == 400 && error.message.contains("empty")
                    && error.body?.contains("invalid_request") == true
            }
        }
    }

    @Test("a server that is not there gives a transport error")
    func unreachable() async throws {
        // Bind then release a port so that nothing listens on it.
        let port = try await withServer { $0.port }
        let client = SSETransport(baseURL: "http://127.0.0.1:\(port)", connectTimeout: .seconds(3))
        await #expect {
            for try await _ in client.answer(AnswerRequest(query: "hello")) {}
        } throws: { error in
            (error as? CadenceClientError)?.code == .transport
        }
    }

    @Test("healthz answers ok")
    func healthz() async throws {
        try await withServer { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(10))
            #expect(response.status == .ok)
            #expect(String(buffer: try await response.body.collect(upTo: 1024)).contains("ok"))
        }
    }

    @Test("many answers stream at once")
    func concurrentAnswers() async throws {
        try await withServer { server in
            let client = SSETransport(baseURL: server.baseURL)
            let texts = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var text = ""
                        for try await event in client.answer(AnswerRequest(query: "What is BM25?")) {
                            if case .token(let token) = event.kind { text += token }
                        }
                        return text
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(texts.count == 8)
            #expect(Set(texts).count == 1, "the same question gives the same answer on every connection")
            #expect(!texts[0].isEmpty)
        }
    }
}
