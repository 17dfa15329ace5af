import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

/// A client of the OpenAI-compatible stream cut at any byte resumes with `Last-Event-ID` set to the
/// last chunk `id:` it saw and gets exactly the rest: the text equals the answer's text as
/// `/v1/answers` serves it, nothing lost or doubled, whatever byte the cut fell on.
@Suite("OpenAI-compatible chat completions: cut anywhere, resumed exactly", .timeLimit(.minutes(3)))
struct ChatCompletionCutTests {
    /// The engine behind the front door: the corpus engine, or the chat engine relaying a model.
    enum Engine: String, CaseIterable, Sendable {
        case corpus, chat

        /// The model's text, when a model writes the answer: the cut test's pieces, eight times over.
        static let modelTokens = Array(repeatElement(ChatAnswerCutTests.tokens, count: 8).joined())

        func withServer(_ body: (RunningServer) async throws -> Void) async throws {
            switch self {
            case .corpus: try await IntegrationTests.withServer(engine: instantEngine, body)
            case .chat:
                let stream = ChatAnswerCutTests.modelStream(tokens: Self.modelTokens)
                let model = try await ReplayServer.start(routes: [
                    "/v1/chat/completions": [.stream(stream, contentType: "text/event-stream")]
                ])
                defer { Task { await model.shutdown() } }
                try await ChatEngineServerTests.withChat(baseURL: model.baseURL + "/v1", body)
            }
        }
    }

    @Test("a cut at every byte offset of one streamed answer, resumed from the last chunk id seen", arguments: Engine.allCases)
    func everyByteOffset(behind engine: Engine) async throws {
        try await engine.withServer { server in
            let question = transportQuestion.query
            let reference = try await ChatClient.complete(
                server, ChatClient.body(question, stream: true, includeUsage: true))
            let id = try #require(reference.answerID)
            let (answerText, events) = try await ChatClient.answerText(server, id)
            try #require(answerText.count > 200, "a long enough answer to cut")
            if engine == .chat { #expect(answerText == Engine.modelTokens.joined(), "the model's text, relayed") }
            let bytes = reference.bytes
            #expect(reference.frames.last?.data == "[DONE]")

            // What the resume sends after each cursor a client can hold: 0 (nothing seen) to the last
            // event, and the finish chunk's `N:finish`.
            let last = events.count
            var cursors = (0...last).map(String.init)
            cursors.append("\(last):finish")
            var replays: [String: Summary] = [:]
            for after in cursors {
                let replay = try await ChatClient.send(
                    .GET, server.baseURL + "/v1/chat/completions/chatcmpl-\(id)/events?include_usage=true",
                    headers: [("Last-Event-ID", after)])
                #expect(replay.status == 200, "after \(after): \(replay.body)")
                #expect(replay.frames.last?.data == "[DONE]", "after \(after)")
                let sequence = Int(after) ?? last - 1
                #expect(replay.frames.dropLast().allSatisfy { ($0.id ?? 0) > sequence }, "strictly after \(after)")
                replays[after] = Summary(replay.frames)
            }
            #expect(
                reference.frames.dropLast(2).last?.rawID == "\(last):finish",
                "the finish chunk before the usage chunk says so in its id")
            let frameEnds = MultiNodeResumeTests.frameEnds(bytes)

            // The client reads byte by byte with an SSE decoder; a cut at any offset leaves it with the
            // frames dispatched so far and their last id (what it sends as Last-Event-ID, 0 before any),
            // and those frames plus the resume's must make the answer exactly once. The state changes
            // only when a frame is dispatched, so the check runs then (and at offset 0).
            var decoder = SSEDecoder()
            var held = Summary([])
            var cursor = "0"
            var failures = 0
            for offset in 0...bytes.count {
                var dispatched = false
                if offset > 0 {
                    for case .event(let event) in try decoder.feed(bytes[(offset - 1)..<offset]) {
                        // The id a client resumes from: the last one dispatched (an SSE decoder carries it
                        // over to a frame without its own, as [DONE]).
                        cursor = event.id.isEmpty ? "0" : event.id
                        held.add(ChatFrame(id: Int(cursor), rawID: cursor, data: event.data, hasEventField: false))
                        dispatched = true
                    }
                }
                guard offset == 0 || dispatched else { continue }
                let rest = held.done ? Summary([]) : try #require(replays[cursor], "a resume after \(cursor)")
                let ok =
                    held.text + rest.text == answerText && held.finishes + rest.finishes == 1
                    && held.usages + rest.usages == 1
                    && Set(held.contentIDs).isDisjoint(with: rest.contentIDs) && (held.done || rest.done)
                if !ok {
                    failures += 1
                    Issue.record("cut at byte \(offset) (cursor \(cursor)): \(held) + \(rest)")
                    if failures > 3 { break }
                }
            }
            #expect(frameEnds.count > 50, "the answer has many frames to cut between")
        }
    }

    /// What a list of frames adds up to.
    struct Summary: CustomStringConvertible {
        var text = ""
        var contentIDs: [Int] = []
        var finishes = 0
        var usages = 0
        var done = false

        init(_ frames: [ChatFrame]) {
            for frame in frames { add(frame) }
        }

        mutating func add(_ frame: ChatFrame) {
            if frame.data == "[DONE]" {
                done = true
                return
            }
            let json = frame.json
            if let piece = json?["choices"]?[0]?["delta"]?["content"]?.stringValue {
                text += piece
                contentIDs.append(frame.id ?? -1)
            }
            if json?["choices"]?[0]?["finish_reason"]?.stringValue != nil { finishes += 1 }
            if json?["choices"] == [] { usages += 1 }
        }

        var description: String {
            "\(text.count) characters, content ids \(contentIDs.first ?? 0)…\(contentIDs.last ?? 0), "
                + "\(finishes) finish, \(usages) usage, done \(done)"
        }
    }
}
