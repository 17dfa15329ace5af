import CadenceCore
import Foundation
import HummingbirdWebSocket

/// Serves `GET /v1/answers/ws`: the client's first text message asks a question
/// (`{"query": …, "history": […]}`) or resumes one (`{"resume": {"answer_id": …, "last_sequence": N}}`).
/// The server sends `{"answer_id": …}`, then each event's JSON (the SSE `data:` payload), and
/// `{"type":"keepalive"}` while quiet, then closes normally. A refusal is
/// `{"error": {"code", "message", "status"}}` followed by a normal close.
struct AnswerWebSocketHandler: Sendable {
    let registry: any AnswerRegistry
    let feed: AnswerFeed
    let limits: ServerConfiguration
    let metrics: ServerMetrics

    static let keepalive = #"{"type":"keepalive"}"#

    /// Serves one WebSocket of `subject`: it may resume only `subject`'s answers.
    func handle(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, subject: String) async throws {
        var messages = inbound.messages(maxSize: limits.maxRequestBytes).makeAsyncIterator()
        guard case .text(let text)? = try await messages.next() else {
            try await send(APIError.badRequest("the first message must be a JSON text message"), to: outbound)
            return
        }
        let id: String
        let after: Int
        let resumed: Bool
        do {
            (id, after, resumed) = try await open(text, subject: subject)
        } catch let error as APIError {
            try await send(error, to: outbound)
            return
        }
        metrics.readerOpened(resumed: resumed)
        defer { metrics.readerClosed() }
        try await outbound.write(.text(JSONValue.object(["answer_id": .string(id)]).jsonText))
        for try await item in feed.items(of: id, after: after) {
            switch item {
            case .events(let events):
                for event in events { try await outbound.write(.text(event.jsonText)) }
            case .keepalive: try await outbound.write(.text(Self.keepalive))
            }
        }
    }

    /// Starts or finds the answer the opening message names; returns its id, the cursor, and whether
    /// it is a resume.
    private func open(_ text: String, subject: String) async throws -> (String, Int, Bool) {
        let json: JSONValue
        do { json = try JSONValue(parsing: text) } catch { throw APIError.badRequest("the message is not JSON: \(error)") }
        if let resume = json["resume"] {
            guard let id = resume["answer_id"]?.stringValue else {
                throw APIError.badRequest("\"resume\" needs a string \"answer_id\"")
            }
            let after = try ReferenceServer.cursor(resume["last_sequence"], name: "\"last_sequence\"")
            do {
                try await registry.check(id, of: subject, after: after)
            } catch let error as AnswerLookupError {
                throw error.apiError
            }
            return (id, after, true)
        }
        let request = try ReferenceServer.validate(data: Data(text.utf8), limits: limits)
        return (try await registry.start(request, for: subject), 0, false)
    }

    private func send(_ error: APIError, to outbound: WebSocketOutboundWriter) async throws {
        let body: JSONValue = [
            "error": [
                "code": .string(error.code), "message": .string(error.message),
                "status": .number(Double(error.status.code)),
            ]
        ]
        try await outbound.write(.text(body.jsonText))
    }
}
