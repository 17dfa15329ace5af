import CadenceCore
import Foundation
import Hummingbird

/// The polling transport: `POST /v1/conversations/{id}/messages` starts an answer and returns its
/// `message_id`; `GET /v1/conversations/{id}/messages?since=N&message_id=…` returns the events with
/// a sequence greater than N and whether the answer is done. `POST /v1/conversations` starts the first
/// message of a new conversation whose id the server makes.
///
/// A conversation belongs to the subject that posted to it: conversation ids are looked up among the
/// subject's own, so another subject's id is, to it, a conversation that does not exist.
extension ReferenceServer {
    /// The longest conversation id a client may give, in characters.
    static let maxConversationIDLength = 128

    static func addConversationRoutes(to router: Router<BasicRequestContext>, registry: any AnswerRegistry, limits: ServerConfiguration) {
        router.post("/v1/conversations") { request, _ -> Response in
            try await startMessage(request, conversation: AnswerID.generate(prefix: "conv_"), registry: registry, limits: limits)
        }
        router.post("/v1/conversations/:conversation/messages") { request, context -> Response in
            let conversation = try conversationID(context.parameters.require("conversation"))
            return try await startMessage(request, conversation: conversation, registry: registry, limits: limits)
        }
        router.get("/v1/conversations/:conversation/messages") { request, context -> Response in
            let subject = try subject(of: request)
            let conversation = try conversationID(context.parameters.require("conversation"))
            let query = request.uri.queryParameters
            let since = try cursor(query.get("since"), name: "since")
            guard let messages = try await registry.messages(in: conversation, of: subject) else {
                throw APIError(
                    status: .notFound, code: "conversation_not_found",
                    message: "there is no conversation \"\(conversation)\"; post a message first")
            }
            guard let id = query.get("message_id") ?? messages.last else {
                throw APIError(status: .notFound, code: "message_not_found", message: "the conversation has no messages")
            }
            guard messages.contains(id) else {
                throw APIError(
                    status: .notFound, code: "message_not_found",
                    message: "the conversation \"\(conversation)\" has no message \"\(id)\"")
            }
            let slice = try await registry.snapshot(id, of: subject, after: since)
            let events = slice.events.map(\.event).filter { $0.sequence != nil }.map(\.json)
            return json(["message_id": .string(id), "events": .array(events), "done": .bool(slice.finished)])
        }
    }

    private static func startMessage(
        _ request: Request, conversation: String, registry: any AnswerRegistry, limits: ServerConfiguration
    ) async throws -> Response {
        let subject = try subject(of: request)
        let answerRequest = try await decodeAnswerRequest(request, limits: limits)
        let id = try await registry.start(answerRequest, for: subject, conversationID: conversation)
        return json(["message_id": .string(id), "conversation_id": .string(conversation)], status: .created)
    }

    /// A conversation id a client gave, if it is at most ``maxConversationIDLength`` characters.
    static func conversationID(_ text: String) throws -> String {
        guard text.count <= maxConversationIDLength else {
            throw APIError.badRequest(
                "the conversation id has \(text.count) characters; the limit is \(maxConversationIDLength) "
                    + "(POST /v1/conversations makes one)")
        }
        return text
    }

    /// A non-negative integer cursor from a query parameter or header; absent means 0.
    static func cursor(_ text: String?, name: String) throws -> Int {
        guard let text, !text.isEmpty else { return 0 }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw APIError.badRequest("\(name) must be a non-negative integer, not \"\(text)\"")
        }
        return value
    }

    /// A non-negative integer cursor from a JSON member (a WebSocket `resume`'s `last_sequence`);
    /// absent means 0, and anything else (a string, a fraction, `null`) is refused like a malformed
    /// `Last-Event-ID`, never read as "no cursor", which would replay the answer from its start.
    /// A whole number too large for a JSON reader to hold exactly (2^53 and up) is still a cursor,
    /// past every answer's end, so it is refused with 416 as the same number in `Last-Event-ID` is.
    static func cursor(_ value: JSONValue?, name: String) throws -> Int {
        guard let value else { return 0 }
        if let sequence = value.intValue, sequence >= 0 { return sequence }
        guard case .number(let number) = value, number >= 0, number.rounded() == number else {
            throw APIError.badRequest("\(name) must be a non-negative integer, not \(value.jsonText)")
        }
        return Int(exactly: number) ?? .max
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText + "\n")))
    }
}
