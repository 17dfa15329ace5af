import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceClient
import CadenceUI

/// P4: the time from the server's write of each token to the `AnswerViewModel` update that holds
/// it, with N concurrent `AnswerStream`s over loopback, against one stream in the same run.
///
///     CadenceBenchmarks latency [--streams 100] [--tokens 200] [--interval-ms 20] [--frame-hz 0] [--json]
///
/// The reference server runs in a child process (`CadenceBenchmarks node`: a `ReferenceServer` with
/// a ``TimestampEngine``), so it does not share this process's cooperative threads and the readers'
/// figures are the client's own. Every token's text is the `CLOCK_MONOTONIC` time at which the engine
/// handed it to the server; after each update the view model applies on the main actor, the time is
/// read again and subtracted from every token the update added to `text`. That is the server's way
/// (registry, SSE encoding, socket) and the client's (AsyncHTTPClient, SSE and event decoding, the
/// reliability machine, the view model's backend state); the pacer is not in it: revealing the text
/// at reading pace is a delay by design. With `--frame-hz 60`, a frame loop also advances every
/// answer's display (pacer and markdown) on the main actor meanwhile, as a display link would if all
/// the answers were on screen at once; by default there is none.
///
/// Each run measures a warm-up answer (not counted), one stream alone (the baseline), then N
/// streams; each answer sends `--tokens` tokens `--interval-ms` apart, the answers offset evenly
/// within one interval, and starts only once every stream is connected.
enum LatencyBenchmark {
    static let options: Set<String> = ["streams", "tokens", "interval-ms", "frame-hz"]

    /// What one set of concurrent answers measured.
    struct Phase {
        var streams: Int
        var latencies: Percentiles
        /// Tokens received and expected, and the streams that did not complete.
        var received, expected, failedStreams: Int
        /// CPU seconds of this process and of the server's, wall seconds, and the load average.
        var clientCPU, serverCPU, seconds, loadAverage: Double
        /// This process's context switches (`processContextSwitches()`) while the answers streamed.
        var clientContextSwitches = 0
        /// How long each display frame took on the main actor, in nanoseconds.
        var frames: Percentiles
    }

    @MainActor
    static func run(cases: [String], options: Options) async throws {
        guard cases.isEmpty else { throw BenchmarkError("the latency benchmark has no cases") }
        let (streams, plan) = try streamsAndPlan(options)
        let frameRate = try options.integer("frame-hz", default: 0)
        raiseOpenFileLimit()

        let client = BenchmarkHTTPClient.make(connections: streams)
        let phases: (baseline: Phase, loaded: Phase)
        do {
            var warmUp = plan
            warmUp.tokens = min(plan.tokens, 20)
            _ = try await measure(streams: 1, plan: warmUp, frameRate: frameRate, client: client)
            phases = (
                try await measure(streams: 1, plan: plan, frameRate: frameRate, client: client),
                try await measure(streams: streams, plan: plan, frameRate: frameRate, client: client)
            )
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()

        let (baseline, loaded) = phases
        var figures = Figures()
        figures.add("streams", streams)
        figures.add("tokens_per_stream", plan.tokens)
        figures.add("interval_ms", Int(plan.interval.seconds * 1000))
        figures.add("frame_hz", frameRate, "display frames on the main actor meanwhile (0: none)")
        figures.add("samples", loaded.latencies.count, "tokens measured at \(streams) streams")
        figures.add("p50_ms", loaded.latencies.milliseconds(at: 0.50), decimals: 3, "server write → view model text")
        figures.add("p90_ms", loaded.latencies.milliseconds(at: 0.90), decimals: 3)
        figures.add("p99_ms", loaded.latencies.milliseconds(at: 0.99), decimals: 3, "goal ≤ 5")
        figures.add("max_ms", loaded.latencies.milliseconds(at: 1), decimals: 3)
        figures.add("baseline_samples", baseline.latencies.count, "tokens measured with 1 stream")
        figures.add("baseline_p50_ms", baseline.latencies.milliseconds(at: 0.50), decimals: 3)
        figures.add("baseline_p99_ms", baseline.latencies.milliseconds(at: 0.99), decimals: 3)
        figures.add("baseline_max_ms", baseline.latencies.milliseconds(at: 1), decimals: 3)
        figures.add(
            "p50_ratio", loaded.latencies.milliseconds(at: 0.50) / baseline.latencies.milliseconds(at: 0.50),
            decimals: 2, "\(streams) streams ÷ 1")
        figures.add(
            "p99_ratio", loaded.latencies.milliseconds(at: 0.99) / baseline.latencies.milliseconds(at: 0.99),
            decimals: 2, "\(streams) streams ÷ 1")
        figures.add(
            "frame_p50_ms", loaded.frames.milliseconds(at: 0.5), decimals: 3,
            "one display frame of every answer, on the main actor")
        figures.add("frame_max_ms", loaded.frames.milliseconds(at: 1), decimals: 3)
        figures.add("lost_tokens", loaded.expected - loaded.received + baseline.expected - baseline.received)
        figures.add("failed_streams", loaded.failedStreams + baseline.failedStreams, "answers that did not complete")
        figures.add("client_cpu_s", loaded.clientCPU, decimals: 2, "this process, \(streams) streams")
        figures.add(
            "client_cpu_us_per_token", loaded.clientCPU / Double(max(1, loaded.received)) * 1e6, decimals: 1,
            "this process's CPU ÷ tokens")
        figures.add("server_cpu_s", loaded.serverCPU, decimals: 2, "the node process, \(streams) streams")
        figures.add("stream_s", loaded.seconds, decimals: 2, "start signal → every answer ended")
        figures.add("load_average", loaded.loadAverage, decimals: 2, "1-minute, before the start signal")
        print(figures.table(title: "latency: \(streams) AnswerStreams → AnswerViewModels, against 1"))
        ReportedFigures.shared.add(figures)
    }

    /// `--streams` (100), and each answer's `--tokens` (200) `--interval-ms` (20) apart.
    static func streamsAndPlan(_ options: Options) throws -> (Int, TimestampEngine.Plan) {
        let streams = max(1, try options.integer("streams", default: 100))
        let plan = TimestampEngine.Plan(
            tokens: max(1, try options.integer("tokens", default: 200)),
            interval: .milliseconds(try options.integer("interval-ms", default: 20)), announcesStart: true)
        guard plan.interval > .zero else { throw BenchmarkError("--interval-ms must be at least 1") }
        return (streams, plan)
    }

    /// Runs `streams` answers of `plan` on a fresh node and collects every token's latency.
    @MainActor
    static func measure(
        streams: Int, plan: TimestampEngine.Plan, frameRate: Int, client: HTTPClient
    ) async throws -> Phase {
        try await NodeProcess.with { node in
            try await measure(streams: streams, plan: plan, frameRate: frameRate, client: client, node: node)
        }
    }

    @MainActor
    private static func measure(
        streams: Int, plan: TimestampEngine.Plan, frameRate: Int, client: HTTPClient, node: NodeProcess
    ) async throws -> Phase {
        let transport = SSETransport(baseURL: "http://127.0.0.1:\(node.port)", httpClient: client)
        let queries = (0..<streams).map { index in
            var answerPlan = plan
            answerPlan.phase = plan.interval * index / streams
            return answerPlan.query
        }
        let recorder = LatencyRecorder(streams: streams, tokens: plan.tokens)
        let answers = ConcurrentAnswers(queries: queries, transport: transport, frameRate: frameRate) {
            answer, before, appliedAt in
            recorder.record(answer.text, from: before, appliedAt: appliedAt)
        }
        do {
            try await answers.wait(
                untilEvery: { $0.sawStage }, within: .seconds(60),
                for: "\(streams) streams connecting")
            let load = MachineLoad.loadAverage()
            let (serverCPU, clientCPU) = (node.cpuSeconds(), processCPUSeconds())
            let switches = processContextSwitches()
            let start = ContinuousClock.now
            node.go()
            try await answers.wait(
                untilEvery: { $0.ending != nil }, within: plan.interval * plan.tokens + .seconds(60),
                for: "\(streams) streams of \(plan.tokens) tokens")
            let seconds = (ContinuousClock.now - start).seconds
            let cpu = (client: processCPUSeconds() - clientCPU, server: node.cpuSeconds() - serverCPU)
            let switched = processContextSwitches() - switches
            await answers.finish()
            return Phase(
                streams: streams, latencies: Percentiles(recorder.latencies), received: recorder.tokens,
                expected: streams * plan.tokens, failedStreams: answers.incompleteCount, clientCPU: cpu.client,
                serverCPU: cpu.server, seconds: seconds, loadAverage: load, clientContextSwitches: switched,
                frames: Percentiles(answers.frameDurations.map { Int64($0.seconds * 1e9) }))
        } catch {
            await answers.cancel()
            throw error
        }
    }
}

/// Every token's latency: each run of digits an update added to an answer's text is the
/// `CLOCK_MONOTONIC` time the server wrote that token.
@MainActor
final class LatencyRecorder {
    private(set) var latencies: [Int64] = []
    private(set) var tokens = 0

    init(streams: Int, tokens: Int) {
        // Room for every token up front, so recording never reallocates while tokens arrive.
        latencies.reserveCapacity(streams * tokens)
    }

    /// Records the tokens in `text` after its first `offset` UTF-8 bytes, all shown at `appliedAt`.
    func record(_ text: String, from offset: Int, appliedAt: Int64) {
        let utf8 = text.utf8
        var written: Int64 = 0
        var inDigits = false
        for byte in utf8[utf8.index(utf8.startIndex, offsetBy: offset)...] {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                written = written * 10 + Int64(byte - UInt8(ascii: "0"))
                inDigits = true
            } else if inDigits {
                latencies.append(appliedAt - written)
                tokens += 1
                (written, inDigits) = (0, false)
            }
        }
        if inDigits {
            latencies.append(appliedAt - written)
            tokens += 1
        }
    }
}
