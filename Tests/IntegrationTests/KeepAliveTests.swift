import AsyncHTTPClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTesting
import NIOCore
import Testing

/// An engine that says one word and then thinks forever (until cancelled).
private struct SlowEngine: AnswerEngine {
    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.token("Thinking"))
            let task = Task {
                // Never finishes by itself; ends when the stream is cancelled.
                while !Task.isCancelled { await Task.yield(); try? await Task.sleep(for: .seconds(3600)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

@Suite("Keep-alive comments")
struct KeepAliveTests {
    @Test("a quiet stream gets ': keepalive' every interval, and only while quiet")
    func keepAliveWhileQuiet() async throws {
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.maxAnswerTime = nil  // the keep-alive's is then the only sleep on the clock
        let server = try await ReferenceServer(engine: SlowEngine(), configuration: configuration, clock: clock).start()
        defer { Task { await server.shutdown() } }
        var request = HTTPClientRequest(url: server.baseURL + "/v1/answers")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"query":"think"}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        var body = response.body.makeAsyncIterator()
        var received = ""
        while !received.contains("Thinking") {
            received += String(buffer: try #require(try await body.next()))
        }
        #expect(!received.contains("keepalive"))
        for round in 1...2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(15))
            var more = ""
            while !more.contains(": keepalive\n\n") {
                more += String(buffer: try #require(try await body.next()))
            }
            #expect(more == ": keepalive\n\n", "round \(round): \(more)")
        }
    }
}
