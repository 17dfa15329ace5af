import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceResearch
import CadenceServer
import CadenceTesting
import Testing

/// The model-research engine end to end: the real reference server, the real `ModelClient`, and a
/// scripted OpenAI-compatible model, all over loopback sockets.
@Suite("Research with a model, through the server")
struct ModelResearchServerTests {
    enum Stage { case plan, reflect, write }

    static let question = AnswerRequest(query: "How does Cadence resume an interrupted stream?")
    static let plan = ScriptedModelServer.Reply.text([#"{"queries": ["resume interrupted stream", "Last-Event-ID"]}"#])
    static let enough = ScriptedModelServer.Reply.text([#"{"sufficient": true, "missing": "", "queries": []}"#])

    static func stage(of request: ScriptedModelServer.Request) -> Stage {
        let system = request.messages.first?.content ?? ""
        if system.hasPrefix("You plan") { return .plan }
        if system.hasPrefix("You check") { return .reflect }
        return .write
    }

    /// A claim the first source really makes: the first words of its excerpt in the writing prompt.
    static func claimFromFirstSource(_ request: ScriptedModelServer.Request) -> String {
        let system = request.messages.first?.content ?? ""
        guard let start = system.range(of: "\n\n[1] ") else { return "nothing" }
        let lines = system[start.upperBound...].split(separator: "\n")
        let excerpt = lines.count > 1 ? lines[1] : lines[0]
        return excerpt.split(separator: " ").prefix(10).joined(separator: " ")
            .trimmingCharacters(in: .punctuationCharacters)
    }

    /// A model that plans, finds the passages enough, and writes `write(request)`.
    static func model(write: @escaping @Sendable (ScriptedModelServer.Request) -> ScriptedModelServer.Reply)
        -> @Sendable (ScriptedModelServer.Request, Int) -> ScriptedModelServer.Reply
    {
        { request, _ in
            switch stage(of: request) {
            case .plan: plan
            case .reflect: enough
            case .write: write(request)
            }
        }
    }

    /// Runs `body` with a scripted model and the real server answering with the research engine.
    static func withResearch<T>(
        clock: some Clock<Duration> = ContinuousClock(),
        configuration: ResearchConfiguration = ResearchConfiguration(),
        model reply: @escaping @Sendable (ScriptedModelServer.Request, Int) -> ScriptedModelServer.Reply,
        _ body: (RunningServer, ScriptedModelServer) async throws -> T
    ) async throws -> T {
        let model = try await ScriptedModelServer.start(reply: reply)
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "scripted"))
        let engine = ModelResearchEngine(
            corpus: try Corpus.bundled(), client: client, configuration: configuration, clock: clock)
        defer { Task { await model.shutdown() } }
        return try await withServer(engine: engine) { server in try await body(server, model) }
    }

    static func writeRequest(_ model: ScriptedModelServer) -> Int? {
        model.requests.firstIndex { stage(of: $0) == .write }
    }

    @Test func answersWithStagesSourcesFirstAndCheckedCitations() async throws {
        try await Self.withResearch(
            model: Self.model { request in
                .text(
                    [Self.claimFromFirstSource(request) + " [", "1]. Bananas are a yellow tropical fruit [2]. ", "Made up [9]."],
                    usage: .init(input: 300, output: 40))
            }
        ) { server, model in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            let types = received.events.map(\.kind.wireType)
            #expect(received.error == nil)
            #expect(
                Array(types.prefix(4)) == ["tier_selected", "planning_started", "planning_complete", "round_started"])
            #expect(received.events.contains { $0.kind == .planningComplete(message: "The model planned 2 searches", queries: ["resume interrupted stream", "Last-Event-ID"]) })
            #expect(types.contains("searching") && types.contains("search_complete") && types.contains("reflection_complete"))
            let sourcesAt = try #require(types.firstIndex(of: "sources_ready"))
            let firstToken = try #require(types.firstIndex(of: "token"))
            #expect(sourcesAt < firstToken)
            #expect(received.endsWithComplete)

            guard case .sourcesReady(let sources) = received.events[sourcesAt].kind else { return }
            #expect(sources.count >= 2)
            #expect(!received.text.contains("[9]"))
            let cited = Self.citationNumbers(in: received.text)
            #expect(cited == [1, 2])
            #expect(cited.allSatisfy { (1...sources.count).contains($0) })

            guard case .complete(let completion)? = received.events.last?.kind else { return }
            let metadata = completion.metadata
            #expect(metadata["engine"] == .string("model-research"))
            #expect(metadata["citations_supported"] == .number(1))
            #expect(metadata["citations_unsupported"] == .number(1))
            #expect(metadata["citations_dropped"] == .number(1))
            let checks = metadata["citations"]?.arrayValue ?? []
            #expect(checks.map { $0["source"] } == [.number(1), .number(2)])
            #expect(checks.map { $0["supported"] } == [.bool(true), .bool(false)])
            #expect(metadata["usage"]?["input_tokens"] == .number(320))  // 300 for writing, 10 each for plan and reflection
            #expect(metadata["model_calls"] == .number(3))

            #expect(model.requests.count == 3)
            #expect(model.requests[0].json?["response_format"] == ["type": "json_object"])
            #expect(model.requests[2].json?["response_format"] == nil)
        }
    }

    static func citationNumbers(in text: String) -> [Int] {
        var numbers: [Int] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            if let number = Int(rest[rest.index(after: open)..<close]) { numbers.append(number) }
            rest = rest[rest.index(after: close)...]
        }
        return numbers
    }

    @Test func aFollowUpSendsTheConversationToPlanningAndWriting() async throws {
        try await Self.withResearch(model: Self.model { _ in .text(["It waits longer each time."]) }) { server, model in
            let followUp = AnswerRequest(
                query: "And how long does it wait between tries?",
                history: [
                    ChatTurn(role: "user", content: "How does Cadence retry a failed request?"),
                    ChatTurn(role: "assistant", content: "It retries with exponential backoff."),
                ])
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), followUp)
            #expect(received.endsWithComplete)
            for index in [0, try #require(Self.writeRequest(model))] {
                let contents = model.requests[index].messages.map(\.content)
                #expect(contents.contains("How does Cadence retry a failed request?"), "request \(index)")
                #expect(contents.contains("It retries with exponential backoff."), "request \(index)")
            }
        }
    }

    @Test func a429IsRetriedAfterItsRetryAfterOnTheInjectedClock() async throws {
        let clock = ManualClock()
        try await Self.withResearch(
            clock: clock,
            model: { request, index in
                index == 0 ? .status(429, retryAfter: "2", message: "rate limited") : Self.model { _ in .text(["Fine."]) }(request, index)
            }
        ) { server, model in
            let reading = Task { await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question) }
            await model.waitUntilClosed(request: 0)
            // The retry waits on the clock: between Retry-After and the idle deadline of a call.
            await clock.waitForSleeps { $0.contains { $0 >= .seconds(2) && $0 < .seconds(60) } }
            #expect(model.requests.count == 1)
            clock.advance(by: .seconds(10))
            let (_, received) = await reading.value
            #expect(received.endsWithComplete)
            #expect(model.requests.count == 4)
            #expect(Self.stage(of: model.requests[1]) == .plan)
            #expect(received.text == "Fine.")
        }
    }

    @Test(arguments: [
        (ScriptedModelServer.Reply.errorMidStream(["Partial ", "answer"], message: "overloaded"), "model_error"),
        (ScriptedModelServer.Reply.truncated(["Partial ", "answer"]), "model_truncated"),
    ])
    func aBrokenModelStreamEndsInAnErrorAfterTheText(reply: ScriptedModelServer.Reply, code: String) async throws {
        try await Self.withResearch(model: Self.model { _ in reply }) { server, _ in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            #expect(received.text == "Partial answer")
            let ending = try #require(received.finalError, "no error at the end: \(received.wireTypes)")
            #expect(ending.code == code)
            #expect(!ending.message.isEmpty)
            #expect(!received.events.contains { $0.kind.wireType == "complete" })
        }
    }

    @Test func aSilentModelTimesOutAndItsRequestIsClosed() async throws {
        let clock = ManualClock()
        try await Self.withResearch(clock: clock, model: Self.model { _ in .silent(["Partial"]) }) { server, model in
            let connection = try await SSETransport(baseURL: server.baseURL).open(Self.question, resume: nil)
            var items = connection.items.makeAsyncIterator()
            var text = ""
            while text != "Partial", case .event(let event)? = try await items.next() {
                if case .token(let token) = event.kind { text += token }
            }
            let write = try #require(Self.writeRequest(model))
            #expect(!model.isClosed(request: write))
            clock.advance(by: .seconds(59))
            #expect(!model.isClosed(request: write))
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(2))
            var last: ResearchEvent.Kind?
            while let item = try await items.next() {
                if case .event(let event) = item { last = event.kind }
            }
            guard case .error(let code, _)? = last else {
                Issue.record("the answer did not end in an error: \(String(describing: last))")
                return
            }
            #expect(code == "model_timeout")
            await model.waitUntilClosed(request: write)
        }
    }

    @Test func deleteClosesTheModelRequest() async throws {
        try await Self.withResearch(model: Self.model { _ in .silent(["Partial"]) }) { server, model in
            let connection = try await SSETransport(baseURL: server.baseURL).open(Self.question, resume: nil)
            let id = try #require(connection.answerID)
            var items = connection.items.makeAsyncIterator()
            while case .event(let event)? = try await items.next(), event.kind != .token("Partial") {}
            let write = try #require(Self.writeRequest(model))
            #expect(!model.isClosed(request: write))
            let (status, _) = try await AnswerCancelTests.delete(server, id)
            #expect(status == 200)
            await model.waitUntilClosed(request: write)
            var last: ResearchEvent.Kind?
            while let item = try await items.next() {
                if case .event(let event) = item { last = event.kind }
            }
            #expect(last == .error(code: "cancelled", message: "the answer was cancelled by the client"))
        }
    }
}
