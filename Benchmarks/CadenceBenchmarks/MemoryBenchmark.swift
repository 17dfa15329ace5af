import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceClient
import CadenceUI

/// P5: the client's resident memory per active stream of a 100 KB answer, at 1 and N concurrent
/// streams, against the answer's size.
///
///     CadenceBenchmarks memory [--streams 100] [--answer-bytes 100000] [--token-bytes 100] [--json]
///
/// The server runs in a child process (`CadenceBenchmarks node`), so this process's `VmRSS` is the
/// client alone: the HTTP client, every `AnswerStream` (connection, SSE decoder, reliability
/// machine) and every `AnswerViewModel`. Each answer is `--answer-bytes` of text in tokens of
/// `--token-bytes` bytes, sent as fast as the server takes them; the engine then holds the answer's
/// `complete` until every stream has all of its text. So each stream is measured at its largest
/// while still active: the whole answer received, its connection open, mid-answer for the
/// reliability machine. That is measured twice: with the text only received (the backend state and
/// the pacer's buffer, nothing revealed yet), and after `revealAll()` (the visible text and its
/// markdown document too, as on screen once the pacer catches up). The baseline is `VmRSS` right
/// before the streams open, in the same run; after the answers complete and are released, `VmRSS`
/// is read again to show what stays.
enum MemoryBenchmark {
    static let options: Set<String> = ["streams", "answer-bytes", "token-bytes"]

    /// `VmRSS` at each step of one set of concurrent answers.
    struct Phase {
        var streams: Int
        var baseline: Int
        var received: Int
        var revealed: Int
        var released: Int
        var textBytes: Int

        /// Bytes per stream above the baseline at `resident`.
        func perStream(_ resident: Int) -> Int { (resident - baseline) / streams }
    }

    @MainActor
    static func run(cases: [String], options: Options) async throws {
        guard cases.isEmpty else { throw BenchmarkError("the memory benchmark has no cases") }
        let streams = max(1, try options.integer("streams", default: 100))
        let tokenBytes = try options.integer("token-bytes", default: 100)
        guard tokenBytes >= 24 else { throw BenchmarkError("--token-bytes must be at least 24 (the time and a word)") }
        let tokens = max(1, try options.integer("answer-bytes", default: 100_000) / tokenBytes)
        let answerBytes = tokens * tokenBytes
        let plan = TimestampEngine.Plan(
            tokens: tokens, interval: .zero, tokenBytes: tokenBytes, announcesStart: true, holdsEnd: true)
        raiseOpenFileLimit()

        let client = BenchmarkHTTPClient.make(connections: streams)
        let phases: (one: Phase, many: Phase)
        do {
            var warmUp = plan
            warmUp.tokens = min(tokens, 10)
            _ = try await measure(streams: 1, plan: warmUp, client: client)
            phases = (
                try await measure(streams: 1, plan: plan, client: client),
                try await measure(streams: streams, plan: plan, client: client)
            )
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()

        let (one, many) = phases
        let goal = 2 * answerBytes + 65_536
        var figures = Figures()
        figures.add("streams", streams)
        figures.add("answer_bytes", answerBytes, "each answer's text, \(tokens) tokens of \(tokenBytes) bytes")
        figures.add(
            "text_bytes_received", many.textBytes, "text in the \(streams) view models (\(streams) × answer_bytes)")
        figures.add("bytes_per_stream_1", one.perStream(one.revealed), "1 stream, whole answer received and revealed")
        figures.add(
            "bytes_per_stream_100", many.perStream(many.revealed),
            "\(streams) streams, whole answer received and revealed; goal ≤ \(grouped(goal))")
        figures.add("received_bytes_per_stream_1", one.perStream(one.received), "1 stream, received, nothing revealed")
        figures.add(
            "received_bytes_per_stream_100", many.perStream(many.received),
            "\(streams) streams, received, nothing revealed")
        figures.add("goal_bytes_per_stream", goal, "2 × answer_bytes + 64 KiB")
        figures.add(
            "ratio_to_answer_100", Double(many.perStream(many.revealed)) / Double(answerBytes), decimals: 2,
            "bytes_per_stream_100 ÷ answer_bytes")
        figures.add("baseline_rss_bytes_1", one.baseline, "VmRSS before the stream opened")
        figures.add("baseline_rss_bytes_100", many.baseline, "VmRSS before the \(streams) streams opened")
        figures.add(
            "released_bytes_per_stream_100", many.perStream(many.released),
            "\(streams) streams completed and released: what stays")
        print(figures.table(title: "memory: client VmRSS per active stream of a \(grouped(answerBytes))-byte answer"))
        ReportedFigures.shared.add(figures)
    }

    /// Streams `streams` answers of `plan` from a fresh node and reads `VmRSS` at each step.
    @MainActor
    static func measure(streams: Int, plan: TimestampEngine.Plan, client: HTTPClient) async throws -> Phase {
        let node = try await NodeProcess.start(postgresURL: nil)
        do {
            let phase = try await measure(streams: streams, plan: plan, client: client, node: node)
            await node.stop()
            return phase
        } catch {
            await node.stop()
            throw error
        }
    }

    @MainActor
    private static func measure(
        streams: Int, plan: TimestampEngine.Plan, client: HTTPClient, node: NodeProcess
    ) async throws -> Phase {
        let transport = SSETransport(baseURL: "http://127.0.0.1:\(node.port)", httpClient: client)
        let baseline = try await settledResident()
        let held = try await holdAnswers(streams: streams, plan: plan, transport: transport, node: node)
        // The answers, their streams and view models are gone now.
        let released = try await settledResident()
        return Phase(
            streams: streams, baseline: baseline, received: held.received, revealed: held.revealed,
            released: released, textBytes: held.textBytes)
    }

    /// Streams the answers until each has its whole text, reads `VmRSS` with the text received and
    /// again revealed, then lets them complete.
    @MainActor
    private static func holdAnswers(
        streams: Int, plan: TimestampEngine.Plan, transport: SSETransport, node: NodeProcess
    ) async throws -> (received: Int, revealed: Int, textBytes: Int) {
        let answerBytes = plan.tokens * plan.tokenBytes
        let running = ConcurrentAnswers(queries: Array(repeating: plan.query, count: streams), transport: transport)
        do {
            try await running.wait(
                until: { running.answers.allSatisfy { $0.stage != nil } }, within: .seconds(60),
                for: "\(streams) streams connecting")
            node.go()
            try await running.wait(
                until: { running.answers.allSatisfy { $0.text.utf8.count >= answerBytes } }, within: .seconds(300),
                for: "\(streams) answers of \(answerBytes) bytes")
            let received = try await settledResident()
            for answer in running.answers { answer.revealAll() }
            let revealed = try await settledResident()
            let textBytes = running.answers.reduce(0) { $0 + $1.text.utf8.count }
            node.end()
            try await running.wait(until: { running.allEnded }, within: .seconds(60), for: "\(streams) answers ending")
            await running.finish()
            guard running.incompleteCount == 0 else {
                throw BenchmarkError("\(running.incompleteCount) of \(streams) answers did not complete")
            }
            return (received, revealed, textBytes)
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
