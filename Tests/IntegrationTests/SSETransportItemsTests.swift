import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

/// `SSETransport`'s items are read and decoded by whoever iterates them: what arrived before a
/// malformed event or a passed limit is handed out first, in order, then the error.
@Suite("SSE transport items read in the iterating task")
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
}
