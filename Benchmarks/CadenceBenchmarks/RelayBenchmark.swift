import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceCore
import Foundation
import NIOCore

/// The chat relay against the model direct, same run: how much time `cadence serve --engine chat`
/// adds between a model's write of a token and a client's read of it, and how many tokens it relays
/// per second of its own CPU.
///
///     CadenceBenchmarks relay [--streams 100] [--tokens 200] [--interval-ms 20]
///                             [--burst-streams 10] [--burst-tokens 5000] [--json]
///
/// Three processes: this one reads; a model node (`model-node`, ``TimestampModel``) writes
/// OpenAI Chat Completions chunks whose content is the `CLOCK_MONOTONIC` time of the write; a relay
/// node (`relay-node`, ``RelayNode``) runs a `ReferenceServer` with a `ChatEngine` pointed at the
/// model. Direct, a reader posts to the model and decodes its chunks with `ModelStreamDecoder`;
/// relayed, it posts to `/v1/answers` and decodes `token` events with `SSEDecoder` and
/// `ResearchEventDecoder`: the decoders an app would use on each path. Either way the latency of a
/// token is the time it was decoded minus the time the model wrote it. Each phase starts fresh nodes,
/// connects every stream, then opens the model's start gate.
///
/// The burst phase sends `--burst-tokens` tokens as fast as the model writes them on each of
/// `--burst-streams` relayed answers: the relay's tokens per CPU second is its throughput per core.
enum RelayBenchmark {
    static let options: Set<String> = ["streams", "tokens", "interval-ms", "burst-streams", "burst-tokens"]

    enum Path: String { case direct, relayed }

    /// What one phase measured.
    struct Phase {
        var latencies: Percentiles
        var received, expected, failedStreams: Int
        var seconds, relayCPU, modelCPU, clientCPU: Double
    }

    static func run(cases: [String], options: Options) async throws {
        guard cases.isEmpty else { throw BenchmarkError("the relay benchmark has no cases") }
        let streams = max(1, try options.integer("streams", default: 100))
        let plan = TimestampEngine.Plan(
            tokens: max(1, try options.integer("tokens", default: 200)),
            interval: .milliseconds(try options.integer("interval-ms", default: 20)))
        guard plan.interval > .zero else { throw BenchmarkError("--interval-ms must be at least 1") }
        let burstStreams = max(1, try options.integer("burst-streams", default: 10))
        let burst = TimestampEngine.Plan(tokens: max(1, try options.integer("burst-tokens", default: 5000)), interval: .zero)
        raiseOpenFileLimit()

        // One more connection than streams per host, for the model's /stats while every stream is open.
        let client = BenchmarkHTTPClient.make(connections: max(streams, burstStreams) + 2)
        var results: [String: Phase] = [:]
        do {
            var warmUp = plan
            warmUp.tokens = min(plan.tokens, 20)
            for path in [Path.direct, .relayed] {
                _ = try await measure(path, streams: 1, plan: warmUp, client: client)
            }
            for (count, path) in [(1, Path.direct), (1, .relayed), (streams, .direct), (streams, .relayed)] {
                results["\(path.rawValue)-\(count)"] = try await measure(path, streams: count, plan: plan, client: client)
            }
            results["burst-direct"] = try await measure(.direct, streams: burstStreams, plan: burst, client: client)
            results["burst-relayed"] = try await measure(.relayed, streams: burstStreams, plan: burst, client: client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        report(results, streams: streams, plan: plan, burstStreams: burstStreams, burst: burst)
    }

    static func report(
        _ results: [String: Phase], streams: Int, plan: TimestampEngine.Plan, burstStreams: Int,
        burst: TimestampEngine.Plan
    ) {
        var figures = Figures()
        figures.add("streams", streams)
        figures.add("tokens_per_stream", plan.tokens)
        figures.add("interval_ms", Int(plan.interval.seconds * 1000))
        for count in Set([1, streams]).sorted() {
            guard let direct = results["direct-\(count)"], let relayed = results["relayed-\(count)"] else { continue }
            for (name, fraction) in [("p50", 0.5), ("p99", 0.99)] {
                let (d, r) = (direct.latencies.milliseconds(at: fraction), relayed.latencies.milliseconds(at: fraction))
                figures.add("direct_\(count)_\(name)_ms", d, decimals: 3, "model write → client read, model direct")
                figures.add("relayed_\(count)_\(name)_ms", r, decimals: 3, "model write → client read, through the relay")
                figures.add(
                    "added_\(count)_\(name)_ms", r - d, decimals: 3,
                    count == streams && name == "p99" ? "goal ≤ 2 at 100 answers" : "relayed − direct")
            }
            figures.add("relayed_\(count)_max_ms", relayed.latencies.milliseconds(at: 1), decimals: 3)
            figures.add("relay_\(count)_cpu_s", relayed.relayCPU, decimals: 2, "the relay node's CPU")
        }
        let lost = results.values.reduce(0) { $0 + $1.expected - $1.received }
        figures.add("lost_tokens", lost, "over every phase")
        figures.add("failed_streams", results.values.reduce(0) { $0 + $1.failedStreams })
        if let direct = results["burst-direct"], let relayed = results["burst-relayed"] {
            figures.add("burst_streams", burstStreams)
            figures.add("burst_tokens_per_stream", burst.tokens)
            figures.add(
                "burst_direct_tokens_per_s", Double(direct.received) / max(direct.seconds, 1e-9), decimals: 0,
                "as fast as the model writes, read direct")
            figures.add(
                "burst_relayed_tokens_per_s", Double(relayed.received) / max(relayed.seconds, 1e-9), decimals: 0,
                "the same, through the relay")
            figures.add("burst_relay_cpu_s", relayed.relayCPU, decimals: 2)
            figures.add(
                "relay_tokens_per_cpu_s", Double(relayed.received) / max(relayed.relayCPU, 1e-9), decimals: 0,
                "tokens relayed per second of the relay's CPU: its throughput per core")
            figures.add(
                "relay_cpu_us_per_token", relayed.relayCPU / Double(max(1, relayed.received)) * 1e6, decimals: 1)
            figures.add("burst_model_cpu_s", relayed.modelCPU, decimals: 2, "the model node, relayed burst")
        }
        figures.add("load_average", MachineLoad.loadAverage(), decimals: 2, "1-minute, at the end")
        print(figures.table(title: "relay: model → cadence serve --engine chat → client, against model → client"))
        ReportedFigures.shared.add(figures)
    }

    /// Runs `streams` answers of `plan` on `path` with fresh nodes.
    static func measure(_ path: Path, streams: Int, plan: TimestampEngine.Plan, client: HTTPClient) async throws -> Phase {
        let model = try await NodeProcess.start(arguments: ["model-node"])
        let modelURL = "http://127.0.0.1:\(model.port)"
        var relay: NodeProcess?
        do {
            if path == .relayed {
                relay = try await NodeProcess.start(arguments: [
                    "relay-node", "--model-url", modelURL + "/v1", "--connections", String(streams + 8),
                ])
            }
            let phase = try await measure(
                path, streams: streams, plan: plan, client: client, model: model, relay: relay)
            await relay?.stop()
            await model.stop()
            return phase
        } catch {
            await relay?.stop()
            await model.stop()
            throw error
        }
    }

    private static func measure(
        _ path: Path, streams: Int, plan: TimestampEngine.Plan, client: HTTPClient, model: NodeProcess,
        relay: NodeProcess?
    ) async throws -> Phase {
        let readers = (0..<streams).map { index in
            var streamPlan = plan
            streamPlan.phase = plan.interval * index / streams
            let request = path == .direct
                ? TokenReader.modelRequest(url: "http://127.0.0.1:\(model.port)/v1/chat/completions", query: streamPlan.query)
                : TokenReader.answerRequest(url: "http://127.0.0.1:\(relay!.port)/v1/answers", query: streamPlan.query)
            return Task { try await TokenReader.read(request, path: path, client: client, capacity: plan.tokens) }
        }
        do {
            try await waitForStreams(streams, modelPort: model.port, client: client)
            let cpu = (relay: relay?.cpuSeconds() ?? 0, model: model.cpuSeconds(), client: processCPUSeconds())
            let start = ContinuousClock.now
            model.go()
            var latencies: [Int64] = []
            latencies.reserveCapacity(streams * plan.tokens)
            var failed = 0
            for reader in readers {
                let result = try await reader.value
                latencies += result.latencies
                if !result.completed { failed += 1 }
            }
            let seconds = (ContinuousClock.now - start).seconds
            return Phase(
                latencies: Percentiles(latencies), received: latencies.count, expected: streams * plan.tokens,
                failedStreams: failed, seconds: seconds, relayCPU: (relay?.cpuSeconds() ?? 0) - cpu.relay,
                modelCPU: model.cpuSeconds() - cpu.model, clientCPU: processCPUSeconds() - cpu.client)
        } catch {
            for reader in readers { reader.cancel() }
            throw error
        }
    }

    /// Returns once the model holds `count` streams at its start gate (at most 60 s).
    static func waitForStreams(_ count: Int, modelPort: Int, client: HTTPClient) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let response = try await client.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(modelPort)/stats"), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 16)
            if let active = (try? JSONValue(parsing: String(buffer: body)))?["active"]?.intValue, active >= count {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchmarkError("the model did not see \(count) streams within 60 s")
    }
}
