import CadenceCore
import Foundation
import HTTPTypes
import Hummingbird

/// The OpenAI-compatible front door: `POST /v1/chat/completions` in OpenAI's request and response
/// format, in front of whatever engine the server runs.
///
/// A chat completion *is* an answer: it is started in the same registry as `POST /v1/answers`, with
/// the same limits, owner and `Cadence-Answer-ID`, so `/v1/answers/{id}` serves it too. The routes
/// only translate: the request into an ``AnswerRequest`` (``ChatCompletionRequest``), the answer's
/// events into chunks (``ChatCompletionChunks``) or one object (``ChatCompletionMessage``), and
/// errors into OpenAI's shape (``APIError/Shape``).
///
/// - `POST /v1/chat/completions`: `stream: true` streams `chat.completion.chunk` SSE, every chunk
///   with `id:` set to its event's sequence number, ending with `data: [DONE]`; `stream: false`
///   answers one `chat.completion` once the answer has ended.
/// - `GET /v1/chat/completions/{id}/events` with `Last-Event-ID: N` (or `?after=N`) resumes the
///   chunks strictly after N, as `GET /v1/answers/{id}/events` does the events (`?model=` and
///   `?include_usage=true` give the chunks the request's model and usage chunk).
/// - `DELETE /v1/chat/completions/{id}` cancels, as `DELETE /v1/answers/{id}` does.
///
/// `{id}` is the answer id or the completion id (`chatcmpl-` and the answer id).
struct ChatCompletionRoutes: Sendable {
    static let path = "/v1/chat/completions"
    static let completionPrefix = "chatcmpl-"

    let registry: any AnswerRegistry
    let feed: AnswerFeed
    let metrics: ServerMetrics
    let limits: ServerConfiguration

    /// The completion id of answer `answerID`.
    static func completionID(_ answerID: String) -> String { completionPrefix + answerID }

    /// The answer id in a path's `{id}`: a completion id without its prefix, or an answer id as is.
    static func answerID(_ text: String) -> String {
        text.hasPrefix(completionPrefix) ? String(text.dropFirst(completionPrefix.count)) : text
    }

    func add(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ -> Response in
            try await start(request)
        }
        router.get(RouterPath(Self.path + "/:id/events")) { request, context -> Response in
            try await resume(request, id: Self.answerID(context.parameters.require("id")))
        }
        router.delete(RouterPath(Self.path + "/:id")) { request, context -> Response in
            try await ReferenceServer.cancel(
                Self.answerID(context.parameters.require("id")), request: request, registry: registry)
        }
    }

    private var responder: AnswerStreamResponder { AnswerStreamResponder(feed: feed, metrics: metrics) }

    private func start(_ request: Request) async throws -> Response {
        let subject = try ReferenceServer.subject(of: request)
        let body = try await ReferenceServer.body(of: request, limits: limits)
        let json: JSONValue
        do {
            json = try JSONValue(parsing: String(decoding: body, as: UTF8.self))
        } catch {
            throw APIError.badRequest("the body is not JSON: \(error.message)")
        }
        let chat = try ChatCompletionRequest(json: json)
        let id = try await registry.start(ReferenceServer.checked(chat.answerRequest, limits: limits), for: subject)
        let created = Self.now()
        guard chat.stream else { return try await single(id, model: chat.model, created: created) }
        let chunks = ChatCompletionChunks(answerID: id, model: chat.model, created: created, includeUsage: chat.includeUsage)
        return responder.response(answerID: id, after: 0, resumed: false, format: .chatCompletion(chunks))
    }

    private func resume(_ request: Request, id: String) async throws -> Response {
        let subject = try ReferenceServer.subject(of: request)
        let (after, resumed, finishSent) = try Self.resumeCursor(of: request)
        try await registry.check(id, of: subject, after: after)
        let query = request.uri.queryParameters
        let chunks = ChatCompletionChunks(
            answerID: id, model: query.get("model") ?? ChatCompletionRequest.defaultModel, created: Self.now(),
            includeUsage: query.get("include_usage") == "true",
            toolCallsBefore: try await toolCalls(of: id, subject: subject, upTo: after), finishSent: finishSent)
        return responder.response(answerID: id, after: after, resumed: resumed, format: .chatCompletion(chunks))
    }

    /// The resume cursor as ``ReferenceServer/resumeCursor(of:)`` reads it, and also `N:finish`, the
    /// id of a finish chunk that a usage chunk follows: the client has every event before `N` and
    /// `N`'s finish chunk, so the response starts at event `N` without that chunk.
    static func resumeCursor(of request: Request) throws -> (after: Int, resumed: Bool, finishSent: Bool) {
        let name = HTTPField.Name("Last-Event-ID")!
        let text = request.headers[name] ?? request.uri.queryParameters.get("after").map { String($0) }
        guard let text, text.hasSuffix(ChatCompletionChunks.finishSuffix) else {
            let (after, resumed) = try ReferenceServer.resumeCursor(of: request)
            return (after, resumed, false)
        }
        let sequence = try ReferenceServer.cursor(String(text.dropLast(ChatCompletionChunks.finishSuffix.count)), name: "Last-Event-ID")
        guard sequence > 0 else {
            throw APIError.badRequest("Last-Event-ID \"\(text)\" names no event: sequences start at 1")
        }
        return (sequence - 1, true, true)
    }

    /// How many tool calls answer `id` made up to sequence `after`, so that a resumed stream gives the
    /// next one the `index` the first stream would have (0 when those events are no longer kept).
    private func toolCalls(of id: String, subject: String, upTo after: Int) async throws -> Int {
        guard after > 0, let earlier = try? await registry.snapshot(id, of: subject, after: 0) else { return 0 }
        return earlier.events.count { logged in
            guard let sequence = logged.event.sequence, sequence <= after else { return false }
            if case .toolCall = logged.event.kind { return true }
            return false
        }
    }

    /// `stream: false`: waits for the answer's end and answers it as one `chat.completion` (or the
    /// error it ended with), with its `Cadence-Answer-ID`.
    private func single(_ id: String, model: String, created: Int) async throws -> Response {
        var message = ChatCompletionMessage()
        for try await item in feed.items(of: id, after: 0) {
            guard case .events(let events) = item else { continue }
            for logged in events where logged.event.sequence != nil {
                if let part = ChatCompletionPart(logged.event.kind) { message.add(part) }
            }
        }
        var response: Response
        do {
            response = ReferenceServer.json(try message.object(answerID: id, model: model, created: created))
        } catch {
            var failure = error
            failure.headers[AnswerStreamResponder.answerIDHeader] = id
            throw failure
        }
        response.headers[AnswerStreamResponder.answerIDHeader] = id
        return response
    }

    /// Unix time in whole seconds: a chunk's `created`.
    private static func now() -> Int { Int(Date().timeIntervalSince1970) }
}
