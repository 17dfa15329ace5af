import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import NIOConcurrencyHelpers
import NIOPosix
import Testing

/// `SSETransport`'s items are decoded on the event loop as the body arrives, and handed to whoever
/// reads them (iterating, or `deliver(to:)` as `AnswerStream` does): what arrived before a malformed
/// event or a passed limit is handed out first, in order, then the error.
@Suite("SSE transport items, decoded as the body arrives")
struct SSETransportItemsTests {
    static func token(_ sequence: Int, _ text: String) -> String {
        "event: token\nid: \(sequence)\ndata: {\"type\":\"token\",\"content\":\"\(text)\",\"sequence\":\(sequence)}\n\n"
    }

    static func read(_ body: String, limits: SSELimits = .default) async throws -> ([TransportItem], (any Error)?) {
        let server = try await ReplayServer.start(routes: ["/v1/answers": [.stream(Array(body.utf8), writeSizes: [])]])
        return try await withReleasing(server, release: { await $0.shutdown() }) { server in
            let transport = SSETransport(baseURL: server.baseURL, limits: limits)
            let connection = try await transport.open(AnswerRequest(query: "q"), resume: nil)
            var items: [TransportItem] = []
            do {
                for try await item in connection.items { items.append(item) }
                return (items, nil)
            } catch {
                return (items, error)
            }
        }
    }

    static func texts(_ items: [TransportItem]) -> [String] {
        items.compactMap { item in
            if case .event(let event) = item, case .token(let text) = event.kind { text } else { nil }
        }
    }

    @Test("events before a malformed one in the same write come first, then the malformed-event error")
    func eventsThenMalformed() async throws {
        let body = Self.token(1, "Grüße ") + ": keepalive\n\n" + Self.token(2, "aus ")
            + "event: token\ndata: {\"type\":\"token\",\"cont\n\n" + Self.token(3, "Köln")
        let (items, error) = try await Self.read(body)
        #expect(Self.texts(items) == ["Grüße ", "aus "])
        #expect(items.count == 3, "two tokens and the keepalive")
        #expect((error as? CadenceClientError)?.code == .malformedEvent)
    }

    @Test("events before a line over the limit come first, then the malformed-stream error")
    func eventsThenLimit() async throws {
        let body = Self.token(1, "one ") + Self.token(2, "two ") + ": " + String(repeating: "x", count: 600) + "\n\n"
        let (items, error) = try await Self.read(body, limits: SSELimits(maxEventBytes: 4096, maxLineBytes: 512))
        #expect(Self.texts(items) == ["one ", "two "])
        #expect((error as? CadenceClientError)?.code == .malformedStream)
    }

    @Test("a connection's items are read once: a second iteration gets nothing")
    func readOnce() async throws {
        let server = try await ReplayServer.start(routes: ["/v1/answers": [.stream(Array(Self.token(1, "a").utf8))]])
        try await withReleasing(server, release: { await $0.shutdown() }) { server in
            let connection = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "q"), resume: nil)
            var first = 0
            for try await _ in connection.items { first += 1 }
            var second = 0
            for try await _ in connection.items { second += 1 }
            #expect(first == 1 && second == 0)
        }
    }

    /// Reads `body` with `deliver(to:)`: the items, whether each was handed over on an event loop
    /// thread, and the error that ended the reading, if any.
    static func delivered(_ body: String) async throws -> (items: [TransportItem], onEventLoop: [Bool], (any Error)?) {
        let server = try await ReplayServer.start(routes: ["/v1/answers": [.stream(Array(body.utf8))]])
        return try await withReleasing(server, release: { await $0.shutdown() }) { server in
            let connection = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "q"), resume: nil)
            let received = NIOLockedValueBox<([TransportItem], [Bool])>(([], []))
            do {
                try await connection.items.deliver { item in
                    let onEventLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
                    received.withLockedValue { $0.0.append(item); $0.1.append(onEventLoop) }
                }
                return received.withLockedValue { ($0.0, $0.1, nil) }
            } catch {
                return received.withLockedValue { ($0.0, $0.1, error) }
            }
        }
    }

    @Test("deliver(to:) hands every item that arrives while it reads over on the event loop that decoded it, in order")
    func deliverOnTheEventLoop() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("first "))
            let connection = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "q"), resume: nil)
            let received = NIOLockedValueBox<[(text: String, onEventLoop: Bool)]>([])
            let (first, firstToken) = AsyncStream<Void>.makeStream()
            let reader = Task {
                try await connection.items.deliver { item in
                    guard case .event(let event) = item, case .token(let text) = event.kind else { return }
                    let onEventLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
                    received.withLockedValue { $0.append((text, onEventLoop)) }
                    firstToken.yield()
                }
            }
            for await _ in first { break }
            // Written once the reader is attached: decoded and handed over where the bytes were read.
            for index in 1...30 { engine.push(.token("t\(index) ")) }
            engine.push(.complete(Completion()))
            engine.finish()
            try await reader.value
            let tokens = received.withLockedValue { $0 }
            #expect(tokens.map(\.text) == ["first "] + (1...30).map { "t\($0) " })
            let offTheLoop = tokens.dropFirst().filter { !$0.onEventLoop }.map(\.text)
            #expect(offTheLoop.isEmpty, "no task between the socket and the reader")
        }
    }

    @Test("deliver(to:) hands over the events before a malformed one, then throws the malformed-event error")
    func deliverThenMalformed() async throws {
        let body = Self.token(1, "eins ") + Self.token(2, "zwei ") + "event: token\ndata: {\"type\":\"tok\n\n"
            + Self.token(3, "drei")
        let (items, _, error) = try await Self.delivered(body)
        #expect(Self.texts(items) == ["eins ", "zwei "])
        #expect((error as? CadenceClientError)?.code == .malformedEvent)
    }

    @Test("cancelling the task in deliver(to:) ends it at once with CancellationError, the stream still open")
    func deliverCancelled() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("Hello"))
            let connection = try await SSETransport(baseURL: server.baseURL).open(AnswerRequest(query: "q"), resume: nil)
            let (first, firstItem) = AsyncStream<Void>.makeStream()
            let reader = Task {
                try await connection.items.deliver { item in
                    if case .event(let event) = item, case .token = event.kind { firstItem.yield() }
                }
            }
            for await _ in first { break }
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
        }
    }
}
