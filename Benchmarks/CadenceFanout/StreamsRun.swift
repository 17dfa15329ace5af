import CadenceBenchmarkKit
import Foundation

/// One streams measurement against one node, whatever serves it (a Cadence node or the floor): the
/// answers, started with `POST /v1/answers` and holding their tokens until `go`; the readers, spread
/// over the answers, connected with `GET /v1/answers/{id}/events`; the node's memory before and with
/// them; then every answer produces `tokens` tokens `interval` apart, the answers' schedules evenly
/// offset within one interval, and each reader records production-to-arrival of every token.
/// Readers keep their connections until every one has its `complete`; closing them all is measured apart.
struct StreamsRun {
    static let options: Set<String> = ["readers", "readers-per-answer", "tokens", "interval-ms", "client-threads"]

    var readers: Int
    var readersPerAnswer: Int
    var plan: TimestampEngine.Plan
    var clientThreads: Int

    init(_ options: Options) throws {
        readers = try options.integer("readers", default: 1_000)
        readersPerAnswer = max(1, try options.integer("readers-per-answer", default: 100))
        plan = TimestampEngine.Plan(
            tokens: try options.integer("tokens", default: 100),
            interval: .milliseconds(try options.integer("interval-ms", default: 100)))
        guard plan.interval > .zero else { throw BenchmarkError("--interval-ms must be at least 1") }
        clientThreads = max(1, try options.integer("client-threads", default: 2))
    }

    var answers: Int { (readers + readersPerAnswer - 1) / readersPerAnswer }

    /// Tokens per second owed to all readers together.
    var offeredEventsPerSecond: Double { Double(readers) / plan.interval.seconds }

    /// Measures the node. With `idleConnections` above 0, once the readers are connected and measured
    /// it also opens that many idle keep-alive connections (``ReaderClient/connectIdle(count:port:)``),
    /// measures the node again, and closes them before the start signal.
    func measure(_ node: NodeProcess, client: ReaderClient, idleConnections: Int = 0) async throws -> StreamsOutcome {
        var outcome = StreamsOutcome(run: self)
        var answerIDs: [String] = []
        for index in 0..<answers {
            var answerPlan = plan
            answerPlan.phase = plan.interval * index / answers
            answerIDs.append(try await client.startAnswer(port: node.port, query: answerPlan.query))
        }
        try await Task.sleep(for: .seconds(1))
        outcome.before = node.memory().resident

        let connectStart = ContinuousClock.now
        let targets = (0..<readers).map { (port: node.port, path: "/v1/answers/\(answerIDs[$0 % answers])/events") }
        let connected = try await client.connect(targets, expectedTokens: plan.tokens, recordsLatencies: true)
        outcome.connectSeconds = (ContinuousClock.now - connectStart).seconds
        try await Task.sleep(for: .seconds(1))
        outcome.connected = node.memory().resident
        if idleConnections > 0 {
            outcome.idle = try await Self.idleMemory(of: node, count: idleConnections, after: outcome.connected, client)
        }

        outcome.load = MachineLoad.loadAverage()
        let (serverCPU, clientCPU, machineCPU) = (node.cpuSeconds(), processCPUSeconds(), MachineLoad.busyCPUSeconds())
        outcome.goTime = monotonicNanoseconds()
        node.go()
        let sampler = MemorySampler.start(node)
        outcome.results = await StreamsBenchmark.results(
            of: connected, deadline: plan.interval * plan.tokens + .seconds(120))
        outcome.streamingResident = await sampler.stop()
        (outcome.serverCPU, outcome.clientCPU) = (node.cpuSeconds() - serverCPU, processCPUSeconds() - clientCPU)
        outcome.otherCPU = MachineLoad.otherCPUSeconds(
            since: machineCPU, measured: outcome.serverCPU + outcome.clientCPU)
        outcome.peak = node.memory().peak
        // Closing ten thousand connections at once is work of its own for the server: measured apart.
        let serverCPUBeforeClose = node.cpuSeconds()
        await StreamsBenchmark.close(connected)
        try await Task.sleep(for: .seconds(1))
        outcome.serverCPUClosing = node.cpuSeconds() - serverCPUBeforeClose
        return outcome
    }

    /// The node's memory per idle keep-alive connection: `count` of them opened on top of `resident`,
    /// measured a second later, then closed. `nil` (with how many) if the node closed any of them before
    /// the measurement: the figure would be too low.
    private static func idleMemory(
        of node: NodeProcess, count: Int, after resident: Int, _ client: ReaderClient
    ) async throws -> StreamsOutcome.IdleConnections {
        let channels = try await client.connectIdle(count: count, port: node.port)
        try await Task.sleep(for: .seconds(1))
        let withThem = node.memory().resident
        let closedEarly = channels.filter { !$0.isActive }.count
        for channel in channels { channel.close(promise: nil) }
        for channel in channels { try? await channel.closeFuture.get() }
        try await Task.sleep(for: .milliseconds(500))
        return StreamsOutcome.IdleConnections(
            count: count, bytesEach: closedEarly == 0 ? (withThem - resident) / count : nil, closedEarly: closedEarly)
    }
}
