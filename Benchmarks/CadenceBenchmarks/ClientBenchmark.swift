import CadenceBenchmarkKit
import CadenceClient
import CadenceCore
import CadenceUI
import NIOCore

/// The client's CPU per token, from the socket to the `AnswerViewModel` update (the pacer's
/// animation excluded: no display frames), at 1 and N concurrent streams, beside a floor that runs
/// the same kind of bytes through the same decoders, machine and view model in one task, with no
/// socket and no hand-off between tasks.
///
///     CadenceBenchmarks client [--streams 100] [--tokens 200] [--interval-ms 20] [--floor-tokens 200000] [--json]
///
/// The streams are the latency benchmark's phases (a reference server in a child process, one
/// answer per stream, `--tokens` tokens `--interval-ms` apart): this process's CPU time while they
/// stream, divided by the tokens received. The floor decodes `--floor-tokens` such token frames, one frame
/// per chunk as the network delivers them, with `SSEDecoder` and `ResearchEventDecoder`, hands each
/// event to an `AnswerStreamMachine` and each update it emits to an `AnswerViewModel`, and divides
/// its CPU time by the tokens. What the streams spend above the floor is the socket, the HTTP client
/// and the tasks a token crosses.
enum ClientBenchmark {
    static let options: Set<String> = ["streams", "tokens", "interval-ms", "floor-tokens"]

    @MainActor
    static func run(cases: [String], options: Options) async throws {
        guard cases.isEmpty else { throw BenchmarkError("the client benchmark has no cases") }
        let (streams, plan) = try LatencyBenchmark.streamsAndPlan(options)
        raiseOpenFileLimit()

        let client = BenchmarkHTTPClient.make(connections: streams)
        let phases: (one: LatencyBenchmark.Phase, many: LatencyBenchmark.Phase)
        do {
            var warmUp = plan
            warmUp.tokens = min(plan.tokens, 20)
            _ = try await LatencyBenchmark.measure(streams: 1, plan: warmUp, frameRate: 0, client: client)
            phases = (
                try await LatencyBenchmark.measure(streams: 1, plan: plan, frameRate: 0, client: client),
                try await LatencyBenchmark.measure(streams: streams, plan: plan, frameRate: 0, client: client)
            )
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        let floorTokens = max(plan.tokens, try options.integer("floor-tokens", default: 200_000))
        let floor = try self.floor(answers: floorTokens / plan.tokens, tokens: plan.tokens)

        func perToken(_ phase: LatencyBenchmark.Phase) -> Double {
            phase.clientCPU / Double(max(1, phase.received)) * 1e6
        }
        var figures = Figures()
        figures.add("streams", streams)
        figures.add("tokens_per_stream", plan.tokens)
        figures.add("interval_ms", Int(plan.interval.seconds * 1000))
        figures.add("cpu_us_per_token_1", perToken(phases.one), decimals: 1, "this process's CPU ÷ tokens, 1 stream")
        figures.add(
            "cpu_us_per_token_\(streams)", perToken(phases.many), decimals: 1, "this process's CPU ÷ tokens, \(streams) streams")
        func switchesPerToken(_ phase: LatencyBenchmark.Phase) -> Double {
            Double(phase.clientContextSwitches) / Double(max(1, phase.received))
        }
        figures.add(
            "switches_per_token_1", switchesPerToken(phases.one), decimals: 2,
            "this process's context switches ÷ tokens, 1 stream: the threads a token wakes")
        figures.add("switches_per_token_\(streams)", switchesPerToken(phases.many), decimals: 2)
        figures.add(
            "floor_cpu_us_per_token", floor.cpuPerToken * 1e6, decimals: 2,
            "same decoders, machine and view model, one task, no socket")
        figures.add("floor_tokens", floor.tokens)
        figures.add("ratio_\(streams)", perToken(phases.many) / (floor.cpuPerToken * 1e6), decimals: 1, "streams ÷ floor")
        figures.add(
            "lost_tokens", phases.one.expected - phases.one.received + phases.many.expected - phases.many.received)
        figures.add("failed_streams", phases.one.failedStreams + phases.many.failedStreams)
        figures.add("load_average", phases.many.loadAverage, decimals: 2, "1-minute, before the start signal")
        print(figures.table(title: "client: CPU per token, socket → view model, against one task's floor"))
        ReportedFigures.shared.add(figures)
    }

    /// Runs `answers` answers of `tokens` token frames each through the client's decoders, machine
    /// and view model in this task; returns the CPU seconds per token.
    @MainActor
    static func floor(answers: Int, tokens: Int) throws -> (cpuPerToken: Double, tokens: Int) {
        // Frames like the server's: a 19-digit timestamp and a space per token, then `complete`.
        var frames = (1...tokens).map { index in
            ByteBuffer(
                string: ResearchEventEncoder.frame(
                    ResearchEvent(sequence: index, kind: .token("\(1_700_000_000_000_000_000 + index) "))))
        }
        frames.append(
            ByteBuffer(
                string: ResearchEventEncoder.frame(ResearchEvent(sequence: tokens + 1, kind: .complete(Completion())))))
        var applied = 0
        let start = processCPUSeconds()
        for answer in 0..<answers {
            var decoder = SSEDecoder()
            var batch = SSEBatch()
            var machine = AnswerStreamMachine()
            let view = AnswerViewModel(id: "floor-\(answer)", query: "floor")
            var now = Duration.zero
            func perform(_ actions: [AnswerStreamMachine.Action]) {
                for case .emit(let update) in actions {
                    view.apply(update, at: now)
                    if case .textAppended = update { applied += 1 }
                }
            }
            perform(machine.start(now: now))
            perform(machine.connected(answerID: "floor-\(answer)", now: now))
            for frame in frames {
                now += .milliseconds(20)
                try frame.withUnsafeReadableBytes { try decoder.feed($0, into: &batch) }
                perform(machine.bytesReceived(now: now))
                for item in batch {
                    if let event = try ResearchEventDecoder.decode(item) { perform(machine.received(event, now: now)) }
                }
                batch.removeAll()
            }
            perform(machine.connectionClosed(now: now))
            guard view.text.utf8.count == tokens * 20 else {
                throw BenchmarkError("the floor's view model holds \(view.text.utf8.count) bytes, not \(tokens * 20)")
            }
        }
        let cpu = processCPUSeconds() - start
        return (cpu / Double(max(1, applied)), applied)
    }
}
