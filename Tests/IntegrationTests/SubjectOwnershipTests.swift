import CadenceCore
import CadenceEngine
import CadenceServer
import Foundation
import Testing

/// An engine that says one word and then thinks until cancelled: its answers stay in production.
struct HeldEngine: AnswerEngine {
    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.token("Thinking"))
            let task = Task {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Each answer and conversation belongs to the `sub` of the token that made it; to any other
/// subject it does not exist: the same 404, code and message, as an id that never existed.
@Suite("Ownership by subject", .timeLimit(.minutes(2)))
struct SubjectOwnershipTests {
    typealias Route = AccessControlTests.Route
    static let missing = "ans_00000000000000000000000000000000"
    static let question = #"{"query":"What is SSE?"}"#

    /// A response with `id` written as ID, to compare a refusal of one id with that of another.
    static func shape(_ response: (status: Int, body: String), _ id: String) -> String {
        "\(response.status) " + response.body.replacingOccurrences(of: id, with: "ID")
    }

    static func send(_ route: Route, _ server: RunningServer, _ authorization: String) async throws -> (status: Int, body: String) {
        let (status, _, body) = try await AccessControlTests.send(route, to: server, authorization: authorization)
        return (status, body)
    }

    static func messageID(_ body: String) throws -> String {
        try #require(JSONValue(parsing: body)["message_id"]?.stringValue)
    }

    @Test("another subject's answer: DELETE, events, WebSocket resume and polling get the 404 of a missing id")
    func anotherSubjectsAnswer() async throws {
        try await withServer(engine: HeldEngine(), configuration: JWTTestKeys.hs256Configuration()) { server in
            let ada = try await JWTTestKeys.bearer("ada")
            let bob = try await JWTTestKeys.bearer("bob")
            let posted = try await Self.send(
                Route(method: .POST, path: "/v1/conversations/trip/messages", body: Self.question), server, ada)
            #expect(posted.status == 201)
            let id = try Self.messageID(posted.body)

            for route in [
                { (id: String) in Route(method: .DELETE, path: "/v1/answers/\(id)") },
                { (id: String) in Route(method: .GET, path: "/v1/answers/\(id)/events") },
                { (id: String) in Route(method: .GET, path: "/v1/answers/\(id)/events?after=1") },
            ] {
                let theirs = try await Self.send(route(id), server, bob)
                let none = try await Self.send(route(Self.missing), server, bob)
                #expect(theirs.status == 404)
                #expect(Self.shape(theirs, id) == Self.shape(none, Self.missing))
            }

            let resume = { (id: String) in #"{"resume":{"answer_id":"\#(id)","last_sequence":0}}"# }
            let theirs = try await RawWebSocket.exchange(baseURL: server.baseURL, opening: resume(id), authorization: bob)
            let none = try await RawWebSocket.exchange(
                baseURL: server.baseURL, opening: resume(Self.missing), authorization: bob)
            #expect(theirs.messages.count == 1)
            #expect(theirs.messages.first?.contains("answer_not_found") == true)
            #expect(theirs.messages.map { $0.replacingOccurrences(of: id, with: "ID") }
                == none.messages.map { $0.replacingOccurrences(of: Self.missing, with: "ID") })

            // Polling ada's conversation, with or without her message's id, is polling one that never was.
            let never = try await Self.send(Route(method: .GET, path: "/v1/conversations/never/messages"), server, bob)
            for path in ["/v1/conversations/trip/messages", "/v1/conversations/trip/messages?message_id=\(id)"] {
                let polled = try await Self.send(Route(method: .GET, path: path), server, bob)
                #expect(Self.shape(polled, "trip") == Self.shape(never, "never"), "\(path)")
            }

            // Bob's conversation of the same name is his own: polling it shows only his message.
            let his = try await Self.send(
                Route(method: .POST, path: "/v1/conversations/trip/messages", body: Self.question), server, bob)
            let hisID = try Self.messageID(his.body)
            let latest = try await Self.send(Route(method: .GET, path: "/v1/conversations/trip/messages"), server, bob)
            #expect(try Self.messageID(latest.body) == hisID)
            let hers = try await Self.send(Route(method: .GET, path: "/v1/conversations/trip/messages"), server, ada)
            #expect(try Self.messageID(hers.body) == id)

            // The owner still reaches it.
            #expect(try await Self.send(Route(method: .DELETE, path: "/v1/answers/\(id)"), server, ada).status == 200)
        }
    }

    @Test("POST /v1/conversations makes the conversation id; a given one is at most 128 characters")
    func conversationIDs() async throws {
        try await withServer(engine: instantEngine) { server in
            let created = try await AccessControlTests.send(
                Route(method: .POST, path: "/v1/conversations", body: Self.question), to: server, authorization: nil)
            #expect(created.status == 201)
            let conversation = try #require(JSONValue(parsing: created.body)["conversation_id"]?.stringValue)
            #expect(conversation.hasPrefix("conv_") && conversation.count == 37)
            let polled = try await AccessControlTests.send(
                Route(method: .GET, path: "/v1/conversations/\(conversation)/messages"), to: server, authorization: nil)
            #expect(polled.status == 200)

            let longest = String(repeating: "c", count: 128)
            for (id, status) in [(longest, 201), (longest + "c", 400), (String(repeating: "é", count: 129), 400)] {
                let path = "/v1/conversations/\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/messages"
                let posted = try await AccessControlTests.send(
                    Route(method: .POST, path: path, body: Self.question), to: server, authorization: nil)
                #expect(posted.status == status, "\(id.count) characters: \(posted.body)")
                let get = try await AccessControlTests.send(Route(method: .GET, path: path), to: server, authorization: nil)
                #expect(get.status == (status == 201 ? 200 : 400))
            }
        }
    }

    @Test("--max-answers-per-user: past it a subject gets 429 with Retry-After, and others are served")
    func answersPerSubject() async throws {
        var configuration = JWTTestKeys.hs256Configuration()
        configuration.maxAnswersPerSubject = 1
        try await withServer(engine: HeldEngine(), configuration: configuration) { server in
            let ada = try await JWTTestKeys.bearer("ada")
            let bob = try await JWTTestKeys.bearer("bob")
            let post = Route(method: .POST, path: "/v1/conversations", body: Self.question)
            let first = try await Self.send(post, server, ada)
            #expect(first.status == 201)
            let (status, headers, body) = try await AccessControlTests.send(post, to: server, authorization: ada)
            #expect(status == 429)
            #expect(headers.first(name: "Retry-After") == "1")
            #expect(try JSONValue(parsing: body)["error"]?["code"]?.stringValue == "too_many_answers")
            #expect(try await Self.send(post, server, bob).status == 201)
            // Once hers ends, ada may ask again.
            let id = try Self.messageID(first.body)
            #expect(try await Self.send(Route(method: .DELETE, path: "/v1/answers/\(id)"), server, ada).status == 200)
            #expect(try await Self.send(post, server, ada).status == 201)
        }
    }

    @Test("--rate-limit: past N requests a minute a subject gets 429 with Retry-After, and others are served")
    func rateLimit() async throws {
        var configuration = JWTTestKeys.hs256Configuration()
        configuration.rateLimit = 3
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let ada = try await JWTTestKeys.bearer("ada")
            let bob = try await JWTTestKeys.bearer("bob")
            let probe = Route(method: .GET, path: "/v1/answers/\(Self.missing)/events")
            for _ in 0..<3 { #expect(try await Self.send(probe, server, ada).status == 404) }
            let (status, headers, body) = try await AccessControlTests.send(probe, to: server, authorization: ada)
            #expect(status == 429)
            #expect(headers.first(name: "Retry-After").flatMap(Int.init).map { (1...20).contains($0) } == true)
            #expect(try JSONValue(parsing: body)["error"]?["code"]?.stringValue == "rate_limited")
            #expect(try await Self.send(probe, server, bob).status == 404)
            // /healthz is never limited.
            let health = try await AccessControlTests.send(Route(method: .GET, path: "/healthz"), to: server, authorization: nil)
            #expect(health.status == 200)
        }
    }
}
