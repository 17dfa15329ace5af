import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceServer
import Foundation
import NIOCore
import Testing

/// `GET /metrics`: the Prometheus text the server keeps of its own work.
@Suite("Server metrics", .timeLimit(.minutes(2)))
struct MetricsTests {
    /// The metrics page, and its content type.
    static func scrape(_ server: RunningServer) async throws -> (text: String, contentType: String?) {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.baseURL + "/metrics"), timeout: .seconds(30))
        #expect(response.status == .ok)
        let body = try await response.body.collect(upTo: 4 << 20)
        return (String(buffer: body), response.headers.first(name: "Content-Type"))
    }

    /// The value of the sample `series` (a name with its labels, as printed), or `nil` if absent.
    static func value(of series: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test("every series is there from the start, in the Prometheus text format")
    func format() async throws {
        try await withServer(engine: instantEngine) { server in
            let (text, contentType) = try await Self.scrape(server)
            #expect(contentType?.hasPrefix("text/plain; version=0.0.4") == true)
            for name in [
                "cadence_answers_started_total", "cadence_answers_ended_total", "cadence_active_answers",
                "cadence_active_readers", "cadence_resumes_total", "cadence_events_appended_total",
                "cadence_lease_takeovers_total", "cadence_model_first_token_seconds",
                "cadence_requests_refused_total", "cadence_request_head_timeouts_total",
            ] {
                #expect(text.contains("# TYPE \(name) "), "\(name) missing from:\n\(text)")
            }
            for ending in ["complete", "error", "cancelled", "interrupted"] {
                #expect(Self.value(of: #"cadence_answers_ended_total{ending="\#(ending)"}"#, in: text) != nil)
            }
            #expect(Self.value(of: "cadence_active_readers", in: text) == 0)
            #expect(Self.value(of: "cadence_resumes_total", in: text) == 0)
        }
    }

    @Test("answers are counted when they start, while they run, and by how they end")
    func answers() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let held = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "What is SSE?"), resume: nil)
            engine.push(.token("Hello"))
            var items = held.items.makeAsyncIterator()
            _ = try await items.next()
            var text = try await Self.scrape(server).text
            #expect(Self.value(of: "cadence_answers_started_total", in: text) == 1)
            #expect(Self.value(of: "cadence_active_answers", in: text) == 1)

            let (status, _) = try await AnswerCancelTests.delete(server, try #require(held.answerID))
            #expect(status == 200)
            while try await items.next() != nil {}
            text = try await Self.scrape(server).text
            #expect(Self.value(of: #"cadence_answers_ended_total{ending="cancelled"}"#, in: text) == 1)
            #expect(Self.value(of: #"cadence_answers_ended_total{ending="complete"}"#, in: text) == 0)
            #expect(Self.value(of: "cadence_active_answers", in: text) == 0)
            // token + cancelled error
            #expect(Self.value(of: "cadence_events_appended_total", in: text) == 2)
        }
        try await withServer(engine: instantEngine) { server in
            let (_, received) = await openAndReceive(
                SSETransport(baseURL: server.baseURL), AnswerRequest(query: "How does resume work?"))
            #expect(received.endsWithComplete)
            let text = try await Self.scrape(server).text
            #expect(Self.value(of: #"cadence_answers_ended_total{ending="complete"}"#, in: text) == 1)
            #expect(Self.value(of: "cadence_events_appended_total", in: text) == Double(received.sequences.count))
        }
    }

    @Test("an answer that ends with an error event is counted as error, whatever its code")
    func failedAnswers() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let opened = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "What is SSE?"), resume: nil)
            engine.push(.token("Hel"), .error(code: "model_failed", message: "the model stopped answering"))
            engine.finish()
            var items = opened.items.makeAsyncIterator()
            while try await items.next() != nil {}
            let text = try await Self.scrape(server).text
            #expect(Self.value(of: #"cadence_answers_ended_total{ending="error"}"#, in: text) == 1)
            for other in ["complete", "cancelled", "interrupted"] {
                #expect(Self.value(of: #"cadence_answers_ended_total{ending="\#(other)"}"#, in: text) == 0)
            }
        }
    }

    @Test("readers are counted while they follow an answer, over SSE and WebSocket, and resumes once each")
    func readersAndResumes() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let request = AnswerRequest(query: "What is SSE?")
            let sse = try await SSETransport(baseURL: server.baseURL).open(request, resume: nil)
            let answerID = try #require(sse.answerID)
            engine.push(.token("Hello"))
            var sseItems = sse.items.makeAsyncIterator()
            _ = try await sseItems.next()  // the body is being written: the reader was counted
            #expect(Self.value(of: "cadence_active_readers", in: try await Self.scrape(server).text) == 1)

            let webSocket = try await WebSocketTransport(baseURL: server.baseURL)
                .open(request, resume: ResumeCursor(answerID: answerID, lastSequence: 1))
            var text = try await Self.scrape(server).text
            #expect(Self.value(of: "cadence_active_readers", in: text) == 2)
            #expect(Self.value(of: "cadence_resumes_total", in: text) == 1)

            engine.push(.token(" world"), .complete(Completion()))
            engine.finish()
            while try await sseItems.next() != nil {}
            #expect(await receive(webSocket).error == nil)
            text = try await Self.scrape(server).text
            #expect(Self.value(of: "cadence_active_readers", in: text) == 0)
            #expect(Self.value(of: "cadence_resumes_total", in: text) == 1)

            // Coming back after a cursor is a resume too.
            let transport = SSETransport(baseURL: server.baseURL)
            _ = await receive(
                try await transport.open(request, resume: ResumeCursor(answerID: answerID, lastSequence: 2)))
            text = try await Self.scrape(server).text
            #expect(Self.value(of: "cadence_resumes_total", in: text) == 2)
            #expect(Self.value(of: "cadence_active_readers", in: text) == 0)
        }
    }

    @Test("refusals and head timeouts are counted")
    func refusalsAndTimeouts() async throws {
        var configuration = ServerConfiguration(token: "t0ken")
        configuration.requestReadTimeout = .seconds(1)
        configuration.maxRequestBytes = 100
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let refused = try await RawConnection.open(port: server.port)
            defer { refused.closeLater() }
            try await refused.send("GET /v1/answers/x/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try await refused.wait(for: "the 401") { $0.closed }
            let tooLarge = try await RawConnection.open(port: server.port)
            defer { tooLarge.closeLater() }
            try await tooLarge.send(
                "POST /v1/answers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t0ken\r\nContent-Length: 5000\r\n\r\n")
            try await tooLarge.wait(for: "the 413") { $0.closed }
            let silent = try await RawConnection.open(port: server.port)
            defer { silent.closeLater() }
            try await silent.wait(for: "the timeout") { $0.closed }

            var request = HTTPClientRequest(url: server.baseURL + "/metrics")
            request.headers.add(name: "Authorization", value: "Bearer t0ken")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
            #expect(Self.value(of: #"cadence_requests_refused_total{code="unauthorized"}"#, in: text) == 1)
            #expect(Self.value(of: #"cadence_requests_refused_total{code="too_large"}"#, in: text) == 1)
            #expect(Self.value(of: "cadence_request_head_timeouts_total", in: text) == 1)
        }
    }

    @Test("a model engine reports each call's first-token latency")
    func modelFirstToken() async throws {
        try await ModelResearchServerTests.withResearch(
            model: ModelResearchServerTests.model { _ in .text(["Resume uses ", "Last-Event-ID."]) }
        ) { server, model in
            let (_, received) = await openAndReceive(
                SSETransport(baseURL: server.baseURL), ModelResearchServerTests.question)
            #expect(received.endsWithComplete)
            let text = try await Self.scrape(server).text
            let calls = Double(model.requests.count)
            #expect(calls >= 3)  // plan, reflect, write
            #expect(Self.value(of: "cadence_model_first_token_seconds_count", in: text) == calls)
            #expect(Self.value(of: #"cadence_model_first_token_seconds_bucket{le="+Inf"}"#, in: text) == calls)
        }
    }
}
