import CadenceCore
import Testing

@testable import CadenceEngine

@Suite struct CorpusEngineTimingTests {
    @Test func delaysGoThroughTheInjectedClock() async throws {
        let clock = RecordingClock(mode: .immediate)
        let engine = CorpusEngine(
            corpus: CorpusEngineTests.corpus, clock: clock, tokenDelay: .milliseconds(12),
            stageDelay: .milliseconds(150))
        let run = try await AnswerRun(engine, CorpusEngineTests.sample)
        let sleeps = await clock.log.sleeps
        let tokenSleeps = sleeps.filter { $0 <= .milliseconds(12) }.count
        let stageSleeps = sleeps.filter { $0 > .milliseconds(100) && $0 <= .milliseconds(150) }.count
        #expect(tokenSleeps == run.tokens.count)
        // Stages that start work pause: planning, each search, each reflection, selection and synthesis.
        let pausing = [
            "planning_started", "searching", "reflection_started", "source_selection_started", "synthesis_started",
        ]
        #expect(stageSleeps == run.events.filter { pausing.contains($0.wireType) }.count)
        #expect(sleeps.count == tokenSleeps + stageSleeps)
    }

    @Test func zeroDelaysNeverSleep() async throws {
        let clock = RecordingClock(mode: .untilCancelled)
        let engine = CorpusEngine(corpus: CorpusEngineTests.corpus, clock: clock, tokenDelay: .zero, stageDelay: .zero)
        // With a clock whose sleeps never return, the answer can only complete if nothing sleeps.
        let run = try await AnswerRun(engine, CorpusEngineTests.sample)
        #expect(run.completion != nil)
        #expect(await clock.log.sleeps.isEmpty)
    }

    @Test func cancellingTheConsumerEndsTheStreamAndStopsTheEngine() async throws {
        let clock = RecordingClock(mode: .untilCancelled)
        let engine = CorpusEngine(
            corpus: CorpusEngineTests.corpus, clock: clock, tokenDelay: .milliseconds(12),
            stageDelay: .milliseconds(150))
        let consumer = Task {
            var received: [ResearchEvent.Kind] = []
            for try await event in engine.answer(AnswerRequest(query: CorpusEngineTests.sample)) {
                received.append(event)
                // The engine is now asleep after `planning_started`; cancel this consuming task.
                if event.wireType == "planning_started" { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return received
        }
        let received = try await consumer.value
        #expect(received.map(\.wireType) == ["tier_selected", "planning_started"])
        // The engine's own task is cancelled too: its pending sleep ends by cancellation.
        var spins = 0
        while await clock.log.cancelledSleeps == 0 && spins < 100_000 {
            await Task.yield()
            spins += 1
        }
        #expect(await clock.log.cancelledSleeps == 1)
        #expect(await clock.log.sleeps.count == 1)
    }

    @Test func lowCoverageRunsASecondRoundWithTheMissingTerms() async throws {
        // Six short passages about alpha and beta outrank one long passage that mentions gamma once,
        // so the first round's best passages miss "gamma" although the corpus has it.
        let filler = (1...60).map { "Plain words fill line \($0)." }.joined(separator: " ")
        var documents = (1...6).map { index in
            Document(collection: "short", path: "ab\(index).md", text: "# Alpha beta\n\nAlpha beta alpha beta.")
        }
        documents.append(Document(collection: "long", path: "g.md", text: "# Notes\n\n\(filler) Gamma appears once."))
        // FTS5's BM25 gives a term in more than half of the passages an IDF of about zero, so alpha
        // and beta need unrelated passages beside them to count at all.
        documents += (1...10).map { Document(collection: "other", path: "o\($0).md", text: "# Other \($0)\n\nUnrelated text.") }
        let engine = CorpusEngine(corpus: try Corpus(documents: documents), tokenDelay: .zero, stageDelay: .zero)
        let run = try await AnswerRun(engine, "alpha beta gamma")

        let reflections = run.events.compactMap { event -> (String?, Bool?)? in
            if case .reflectionComplete(let message, let sufficient) = event { (message, sufficient) } else { nil }
        }
        #expect(reflections.count == 2)
        #expect(reflections.first?.0?.contains("missing: gamma") == true)
        let rounds = run.events.compactMap { if case .roundStarted(let round, _) = $0 { round } else { nil } }
        #expect(rounds == [1, 2])
        // Round 2 searched for "gamma" and found the long passage.
        let secondRound = run.events.drop { if case .roundStarted(2, _) = $0 { false } else { true } }
        let foundInLong = secondRound.compactMap {
            if case .searchComplete(let count, "long") = $0 { count } else { nil }
        }
        #expect(foundInLong == [1])
        #expect(run.completion?.metadata["rounds"]?.intValue == 2)
    }

    @Test func aUserFolderAnswersWithFileURLs() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "garden/tomatoes.md",
            """
            # Growing tomatoes

            Tomatoes need at least six hours of direct sun each day. Water tomatoes deeply twice a week rather \
            than a little every day, so the roots grow down.

            ## Staking

            Tall tomato varieties need stakes or cages. Tie the main stem loosely to the stake as it grows.
            """)
        try folder.write("kitchen/sauce.txt", "Simmer ripe tomatoes with garlic and olive oil for an hour.")
        let engine = CorpusEngine(corpus: try Corpus(directory: folder.url), tokenDelay: .zero, stageDelay: .zero)
        let run = try await AnswerRun(engine, "How often should I water tomatoes?")
        let searched = run.events.compactMap { if case .searching(let source) = $0 { source } else { nil } }
        #expect(searched == ["garden", "kitchen"])
        let first = try #require(run.sources?.first)
        #expect(first.title == "Growing tomatoes")
        #expect(first.url.hasPrefix("file://") && first.url.hasSuffix("garden/tomatoes.md#growing-tomatoes"))
        #expect(run.text.contains("Water tomatoes deeply twice a week"))
        #expect(run.citations.allSatisfy { (1...(run.sources?.count ?? 0)).contains($0) })
    }
}
