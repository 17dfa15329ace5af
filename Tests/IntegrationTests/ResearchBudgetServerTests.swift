import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceResearch
import CadenceServer
import CadenceTesting
import Testing

/// An answer's work is bounded through the real server: a hostile model reply is read in linear
/// work, and an answer past its time or token budget ends with `budget_exceeded`, its text kept.
@Suite("Research budgets, through the server")
struct ResearchBudgetServerTests {
    typealias Research = ModelResearchServerTests

    /// Reads a connection until `stop` holds for the events so far.
    static func read(
        _ items: inout TransportItems.AsyncIterator, until stop: ([ResearchEvent.Kind]) -> Bool
    ) async throws -> [ResearchEvent.Kind] {
        var events: [ResearchEvent.Kind] = []
        while !stop(events), let item = try await items.next() {
            if case .event(let event) = item { events.append(event.kind) }
        }
        return events
    }

    /// The plan reply of issue 33, which kept a core busy for 99 CPU-seconds after `DELETE`: an
    /// unclosed string, then 200,000 closing braces, in one delta. It is cut to the reply cap and
    /// read in one pass, so research goes on at once (before, reading it took minutes of CPU), and
    /// `DELETE` then ends the answer and closes the model's request.
    @Test(.timeLimit(.minutes(1)))
    func aHostilePlanReplyIsReadAtOnceAndDeleteStopsTheAnswer() async throws {
        let hostile = #"{"queries":""# + String(repeating: "}", count: 200_000)
        try await Research.withResearch(model: { request, _ in
            switch Research.stage(of: request) {
            case .plan: .text([hostile])
            case .reflect: Research.enough
            case .write: .silent(["Partial"])
            }
        }) { server, model in
            let connection = try await SSETransport(baseURL: server.baseURL).open(Research.question, resume: nil)
            let id = try #require(connection.answerID)
            var items = connection.items.makeAsyncIterator()
            let events = try await Self.read(&items) { $0.last == .token("Partial") }
            #expect(events.contains(.planningComplete(
                message: "The model's plan was not a JSON object; searching for the question itself",
                queries: [Research.question.query])))
            let write = try #require(Research.writeRequest(model))
            let (status, _) = try await AnswerCancelTests.delete(server, id)
            #expect(status == 200)
            await model.waitUntilClosed(request: write)
            let rest = try await Self.read(&items) { _ in false }
            #expect(rest.last == .error(code: "cancelled", message: "the answer was cancelled by the client"))
        }
    }

    @Test func anAnswerPastItsTokenBudgetEndsWithItsTextKept() async throws {
        try await Research.withResearch(
            model: Research.model { _ in
                .text(["Cadence resumes. ", "It waits. "], usage: .init(input: 150_000, output: 60_000))
            }
        ) { server, _ in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Research.question)
            #expect(received.text == "Cadence resumes. It waits.")  // the citation processor held the last space
            let ending = try #require(received.finalError, "no error at the end: \(received.wireTypes)")
            #expect(ending.code == "budget_exceeded")
            // Plan and reflection reported 30 tokens each, writing 210,000.
            #expect(ending.message.contains("used 210060 tokens (input plus output), past its budget of 200000, during writing"))
            #expect(!received.events.contains { $0.kind.wireType == "complete" })
        }
    }

    @Test func anAnswerPastItsTimeBudgetEndsOnTheInjectedClock() async throws {
        let clock = ManualClock()
        var configuration = ResearchConfiguration()
        configuration.maxAnswerTime = .seconds(30)
        try await Research.withResearch(
            clock: clock, configuration: configuration, model: Research.model { _ in .silent(["Partial."]) }
        ) { server, model in
            let connection = try await SSETransport(baseURL: server.baseURL).open(Research.question, resume: nil)
            var items = connection.items.makeAsyncIterator()
            _ = try await Self.read(&items) { $0.last == .token("Partial.") }
            // One timer: the answer's budget, which comes before the call's 60 s idle deadline.
            await clock.waitForSleep(until: .seconds(30))
            clock.advance(by: .seconds(29))
            #expect(model.requests.count == 3)
            clock.advance(by: .seconds(1))
            let rest = try await Self.read(&items) { _ in false }
            #expect(rest == [
                .error(
                    code: "budget_exceeded",
                    message: "the answer used its whole time budget (30 s) during writing; it ends here with the text so far")
            ])
            await model.waitUntilClosed(request: try #require(Research.writeRequest(model)))
        }
    }

    @Test func aCompletedResearchAnswerReportsItsBudget() async throws {
        try await Research.withResearch(model: Research.model { _ in .text(["Done."], usage: .init(input: 100, output: 5)) }) { server, _ in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Research.question)
            guard case .complete(let completion)? = received.events.last?.kind else {
                Issue.record("no complete: \(received.events.map(\.kind.wireType))")
                return
            }
            let budget = completion.metadata["budget"]
            #expect(budget?["tokens"] == .number(165))
            #expect(budget?["token_limit"] == .number(200_000))
            #expect(budget?["time_limit_ms"] == .number(600_000))
            #expect(budget?["time_ms"]?.doubleValue != nil)
        }
    }

    /// The corpus engine has no budget of its own: the server holds it to the time budget on the
    /// server's clock, and cancels it when the time is up.
    @Test func theServerHoldsEveryEngineToTheTimeBudget() async throws {
        let clock = ManualClock()
        let engine = CorpusEngine(corpus: try Corpus.bundled(), clock: clock, tokenDelay: .seconds(1), stageDelay: .zero)
        var configuration = ServerConfiguration()
        configuration.maxAnswerTime = .seconds(5)
        let running = try await ReferenceServer(engine: engine, configuration: configuration, clock: clock).start()
        try await withReleasing(running, release: { await $0.shutdown() }) { server in
            let reading = Task { await openAndReceive(SSETransport(baseURL: server.baseURL), transportQuestion) }
            // The budget's sleep, the reader's keepalive and the engine's pause after each token: with
            // only two, the engine could still be retrieving when the clock moves, and run out of time
            // before its first token.
            for _ in 1...4 {
                await clock.waitForSleepers(3)
                clock.advance(by: .seconds(1))
            }
            await clock.waitForSleepers(3)
            clock.advance(by: .seconds(1))
            let received = await reading.value.received
            #expect(!received.text.isEmpty, "\(received.events.map(\.kind.wireType))")
            #expect(received.events.last?.kind == .error(
                code: "budget_exceeded", message: "the answer used its whole time budget (5 s); it ends here with the text so far"))
            #expect(!received.events.contains { $0.kind.wireType == "complete" })
        }
    }

    @Test func aCompletedCorpusAnswerReportsTheTimeItUsed() async throws {
        try await withServer { server in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), transportQuestion)
            guard case .complete(let completion)? = received.events.last?.kind else {
                Issue.record("no complete: \(received.events.map(\.kind.wireType))")
                return
            }
            #expect(completion.metadata["budget"]?["time_limit_ms"] == .number(600_000))
            #expect(completion.metadata["budget"]?["time_ms"]?.doubleValue != nil)
        }
    }
}
