import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceClient
import CadenceUI

/// P5: the client's resident memory per active stream of a 100 KB answer, at 1 and N concurrent
/// streams, against the answer's size.
///
///     CadenceBenchmarks memory[.streams|.parts] [--streams 100] [--answer-bytes 100000] [--token-bytes 100]
///         [--json]
///
/// The server runs in a child process (`CadenceBenchmarks node`), so this process's `VmRSS` is the
/// client alone. Each answer is `--answer-bytes` of text in tokens of `--token-bytes` bytes (words,
/// a paragraph every four tokens), sent as fast as the server takes them; the engine then holds the
/// answer's `complete` until the benchmark lets it go. So each stream is measured at its largest
/// while still active: the whole answer received, its connection open, mid-answer for the
/// reliability machine (which keeps the text for a resume) and for the view model.
///
/// Each stream count runs twice, on a fresh server each time, with `VmRSS` read right before the
/// streams open (the baseline) and once every stream has its whole text:
/// - the `AnswerStream`s alone, their updates only counted: the connection, SSE and event
///   decoding, and the reliability machine with its copy of the text;
/// - each stream feeding an `AnswerViewModel`: read with the text received (the backend state and
///   the pacer's backlog, nothing revealed yet), again after `revealAll()` (the visible text and its
///   markdown document too: the headline figure, what a stream holds on screen once the pacer has
///   caught up), again after `malloc_trim(0)` (what is live, without the pages the allocator keeps
///   for reuse), and after the answers completed and were released (before and after
///   `malloc_trim(0)`).
enum MemoryBenchmark {
    static let options: Set<String> = ["streams", "answer-bytes", "token-bytes"]

    /// `VmRSS` at each step of one set of concurrent answers (the view model steps are nil for
    /// streams alone).
    struct Phase {
        var streams, baseline, received: Int
        var revealed, trimmed: Int?
        var released: Int
        var releasedLive = 0
        var textBytes: Int

        /// Bytes per stream above the baseline at `resident`.
        func perStream(_ resident: Int?) -> Int { ((resident ?? baseline) - baseline) / streams }
    }

    static let cases = ["streams", "parts"]

    @MainActor
    static func run(cases requested: [String], options: Options) async throws {
        if let unknown = requested.first(where: { !cases.contains($0) }) {
            throw BenchmarkError("unknown memory case \(unknown); known: \(cases.joined(separator: ", "))")
        }
        let streams = max(1, try options.integer("streams", default: 100))
        let tokenBytes = try options.integer("token-bytes", default: 100)
        guard tokenBytes >= 24 else { throw BenchmarkError("--token-bytes must be at least 24 (the time and a word)") }
        let tokens = max(1, try options.integer("answer-bytes", default: 100_000) / tokenBytes)
        let plan = TimestampEngine.Plan(
            tokens: tokens, interval: .zero, tokenBytes: tokenBytes, announcesStart: true, holdsEnd: true)
        let title = "memory: client VmRSS per active stream of a \(grouped(tokens * tokenBytes))-byte answer"
        raiseOpenFileLimit()
        if requested.isEmpty || requested.contains("streams") {
            let figures = try await measureStreams(streams, plan: plan)
            print(figures.table(title: title))
            ReportedFigures.shared.add(figures)
        }
        if requested.isEmpty || requested.contains("parts") {
            let figures = measureParts(plan: plan)
            print(figures.table(title: "memory.parts: 100 of each part holding the answer, live bytes per part"))
            ReportedFigures.shared.add(figures)
        }
    }

    /// The stream figures: 1 and `streams` streams, each alone and with view models.
    @MainActor
    static func measureStreams(_ streams: Int, plan: TimestampEngine.Plan) async throws -> Figures {
        let (tokens, tokenBytes, answerBytes) = (plan.tokens, plan.tokenBytes, plan.tokens * plan.tokenBytes)
        let client = BenchmarkHTTPClient.make(connections: streams)
        var phases: [Phase] = []
        do {
            var warmUp = plan
            warmUp.tokens = min(tokens, 10)
            _ = try await measure(streams: 1, plan: warmUp, viewModels: true, client: client)
            for (count, viewModels) in [(1, false), (1, true), (streams, false), (streams, true)] {
                phases.append(try await measure(streams: count, plan: plan, viewModels: viewModels, client: client))
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()

        let (streamsAlone1, one, streamsAlone, many) = (phases[0], phases[1], phases[2], phases[3])
        let goal = 2 * answerBytes + 65_536
        var figures = Figures()
        figures.add("streams", streams)
        figures.add("answer_bytes", answerBytes, "each answer's text: \(tokens) tokens of \(tokenBytes) bytes")
        figures.add("text_bytes_received", many.textBytes, "text in the \(streams) view models")
        figures.add("bytes_per_stream_1", one.perStream(one.revealed), "1 stream, view model, received and revealed")
        figures.add(
            "bytes_per_stream_100", many.perStream(many.revealed),
            "\(streams) streams, view models, received and revealed; goal ≤ \(grouped(goal))")
        figures.add("goal_bytes_per_stream", goal, "2 × answer_bytes + 64 KiB")
        figures.add(
            "goal_ratio_100", Double(many.perStream(many.revealed)) / Double(goal), decimals: 2,
            "bytes_per_stream_100 ÷ the goal")
        figures.add(
            "answer_ratio_100", Double(many.perStream(many.revealed)) / Double(answerBytes), decimals: 2,
            "bytes_per_stream_100 ÷ answer_bytes")
        figures.add("received_bytes_per_stream_1", one.perStream(one.received), "view model, nothing revealed yet")
        figures.add("received_bytes_per_stream_100", many.perStream(many.received))
        figures.add(
            "stream_only_bytes_per_stream_1", streamsAlone1.perStream(streamsAlone1.received),
            "AnswerStream alone, updates counted, no view model")
        figures.add("stream_only_bytes_per_stream_100", streamsAlone.perStream(streamsAlone.received))
        figures.add(
            "trimmed_bytes_per_stream_100", many.perStream(many.trimmed),
            "revealed, after malloc_trim(0): live memory without the allocator's free pages")
        figures.add(
            "released_bytes_per_stream_100", many.perStream(many.released),
            "after the answers completed and were released: what stays")
        figures.add(
            "released_live_bytes_per_stream_100", many.perStream(many.releasedLive),
            "the same after malloc_trim(0): what stays live")
        figures.add("baseline_rss_bytes_1", one.baseline, "VmRSS before the stream opened")
        figures.add("baseline_rss_bytes_100", many.baseline, "VmRSS before the \(streams) streams opened")
        figures.add("load_average", MachineLoad.loadAverage(), decimals: 2, "1-minute, at the end")
        return figures
    }

    /// Streams `streams` answers of `plan` from a fresh node and reads `VmRSS` at each step.
    @MainActor
    static func measure(
        streams: Int, plan: TimestampEngine.Plan, viewModels: Bool, client: HTTPClient
    ) async throws -> Phase {
        try await NodeProcess.with { node in
            let transport = SSETransport(baseURL: "http://127.0.0.1:\(node.port)", httpClient: client)
            let baseline = try await settledResident()
            var phase = try await holdAnswers(
                streams: streams, plan: plan, viewModels: viewModels, transport: transport, node: node,
                baseline: baseline)
            // The answers, their streams and view models are gone now.
            phase.released = try await settledResident()
            ProcessMemory.releaseFreeHeapPages()
            phase.releasedLive = try await settledResident()
            return phase
        }
    }

    /// Streams the answers until each has its whole text, reads `VmRSS` at each step, then lets
    /// them complete.
    @MainActor
    private static func holdAnswers(
        streams: Int, plan: TimestampEngine.Plan, viewModels: Bool, transport: SSETransport, node: NodeProcess,
        baseline: Int
    ) async throws -> Phase {
        let answerBytes = plan.tokens * plan.tokenBytes
        let running = ConcurrentAnswers(
            queries: Array(repeating: plan.query, count: streams), transport: transport, viewModels: viewModels)
        do {
            try await running.wait(
                untilEvery: { $0.sawStage }, within: .seconds(60), for: "\(streams) streams connecting")
            node.go()
            try await running.wait(
                untilEvery: { $0.textBytes >= answerBytes }, within: .seconds(300),
                for: "\(streams) answers of \(answerBytes) bytes")
            var phase = Phase(
                streams: streams, baseline: baseline, received: try await settledResident(), released: 0,
                textBytes: running.tallies.reduce(0) { $0 + $1.textBytes })
            if viewModels {
                phase.textBytes = running.answers.reduce(0) { $0 + $1.text.utf8.count }
                for answer in running.answers { answer.revealAll() }
                phase.revealed = try await settledResident()
                ProcessMemory.releaseFreeHeapPages()
                phase.trimmed = try await settledResident()
            }
            node.end()
            try await running.wait(
                untilEvery: { $0.ending != nil }, within: .seconds(60), for: "\(streams) answers ending")
            await running.finish()
            guard running.incompleteCount == 0 else {
                throw BenchmarkError("\(running.incompleteCount) of \(streams) answers did not complete")
            }
            return phase
        } catch {
            await running.cancel()
            throw error
        }
    }

    /// `VmRSS` after a moment's pause, so that buffers in flight have been handed over.
    private static func settledResident() async throws -> Int {
        try await Task.sleep(for: .milliseconds(300))
        return ProcessMemory.read().resident
    }
}
