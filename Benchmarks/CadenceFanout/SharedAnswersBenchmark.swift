import CadenceBenchmarkKit
import Foundation
import NIOPosix

/// Events per second appended and fanned out through PostgreSQL with three nodes, against one
/// in-memory node in the same run, with the same answers and the same readers.
///
///     CadenceFanout shared [--nodes 3] [--answers 25] [--tokens 8000] [--readers-per-node 1]
///         [--postgres URL] [--client-threads 2] [--json]
///
/// Every answer's engine produces its tokens as fast as the server takes them. An answer stays
/// shorter than the server's replay window (``ReplayLimits/maxEvents``, 10,000 by default): an engine
/// this fast runs thousands of events ahead of its readers, and a reader that falls a whole window
/// behind is cut off (as designed), which would count here as lost events. In the PostgreSQL
/// run the answers start round-robin on the nodes and every answer has `--readers-per-node` readers
/// on every node (so most readers follow an answer owned elsewhere, through a notification and a
/// fetch); in the memory run all the same readers sit on the one node. `--readers-per-node 0`
/// measures appending alone.
///
/// - appended: the events of all answers, divided by the time from the start signal until the last
///   answer's `complete` first reached any reader (a reader on the owner hears it as soon as its
///   append commits).
/// - delivered: the events received by all readers, divided by the time until the last reader
///   received `complete`.
enum SharedAnswersBenchmark {
    struct Outcome {
        var appendedPerSecond: Double
        var appendedSeconds: Double
        var deliveredPerSecond: Double
        var seconds: Double
        var lost: Int
        var failures: [String]
        var serverCPU: Double
        /// CPU time of every other process meanwhile (PostgreSQL, and anything else running).
        var otherCPU: Double
        var loadAverage: Double

        func add(to figures: inout Figures, as name: String, _ note: String) {
            figures.add("\(name)_appended_events_per_s", appendedPerSecond, decimals: 0, note)
            figures.add("\(name)_delivered_events_per_s", deliveredPerSecond, decimals: 0)
            figures.add("\(name)_appended_s", appendedSeconds, decimals: 2, "start signal → every answer appended")
            figures.add("\(name)_delivered_s", seconds, decimals: 2, "start signal → last reader complete")
            figures.add("\(name)_lost_events", lost)
            figures.add("\(name)_server_cpu_s", serverCPU, decimals: 2, "the node processes")
            figures.add("\(name)_other_cpu_s", otherCPU, decimals: 2, "every other process, PostgreSQL included")
            figures.add("\(name)_load_average", loadAverage, decimals: 2, "1-minute, before the start signal")
        }
    }

    static func run(_ arguments: [String]) async throws {
        let options = try Options(
            arguments, known: ["nodes", "answers", "tokens", "readers-per-node", "postgres", "client-threads"])
        let nodeCount = max(1, try options.integer("nodes", default: 3))
        let answers = max(1, try options.integer("answers", default: 25))
        let tokens = try options.integer("tokens", default: 8_000)
        let perNode = try options.integer("readers-per-node", default: 1)
        raiseOpenFileLimit()
        let group = MultiThreadedEventLoopGroup(
            numberOfThreads: max(1, try options.integer("client-threads", default: 2)))
        let client = ReaderClient(group: group)

        let memory = try await measure(
            nodes: 1, readersPerAnswerPerNode: perNode * nodeCount, answers: answers, tokens: tokens, postgresURL: nil,
            client: client)
        let postgres = try await BenchmarkPostgres.start(url: options.string("postgres"))
        let shared: Outcome
        do {
            shared = try await measure(
                nodes: nodeCount, readersPerAnswerPerNode: perNode, answers: answers, tokens: tokens,
                postgresURL: postgres.url, client: client)
        } catch {
            postgres.stop()
            throw error
        }
        postgres.stop()
        try await group.shutdownGracefully()

        var figures = Figures()
        figures.add("benchmark", "shared")
        figures.add("nodes", nodeCount)
        figures.add("answers", answers)
        figures.add("events", answers * tokens)
        figures.add("readers", answers * perNode * nodeCount)
        memory.add(to: &figures, as: "memory", "one in-memory node")
        shared.add(to: &figures, as: "postgres", "\(nodeCount) nodes, one PostgreSQL")
        let (appended, delivered) = (
            shared.appendedPerSecond / memory.appendedPerSecond, shared.deliveredPerSecond / memory.deliveredPerSecond
        )
        figures.add("appended_ratio", appended, decimals: 3, "PostgreSQL ÷ memory")
        figures.add("delivered_ratio", delivered, decimals: 3, "PostgreSQL ÷ memory")
        if let failure = (memory.failures + shared.failures).first { figures.add("first_failure", failure) }
        print(
            options.json
                ? figures.json
                : figures.table(
                    title: "shared: \(answers * tokens) events, \(nodeCount) nodes through PostgreSQL vs one in memory")
        )
    }

    static func measure(
        nodes nodeCount: Int, readersPerAnswerPerNode: Int, answers: Int, tokens: Int, postgresURL: String?,
        client: ReaderClient
    ) async throws -> Outcome {
        var nodes: [NodeProcess] = []
        do {
            for _ in 0..<nodeCount { nodes.append(try await NodeProcess.start(postgresURL: postgresURL)) }
            let outcome = try await measure(
                nodes: nodes, readersPerAnswerPerNode: readersPerAnswerPerNode, answers: answers, tokens: tokens,
                client: client)
            for node in nodes { await node.stop() }
            return outcome
        } catch {
            for node in nodes { await node.stop() }
            throw error
        }
    }

    private static func measure(
        nodes: [NodeProcess], readersPerAnswerPerNode: Int, answers: Int, tokens: Int, client: ReaderClient
    ) async throws -> Outcome {
        let plan = TimestampEngine.Plan(tokens: tokens, interval: .zero)
        var paths: [String] = []
        var sentinels: [(port: Int, path: String)] = []
        for index in 0..<answers {
            let owner = nodes[index % nodes.count]
            let id = try await client.startAnswer(port: owner.port, query: plan.query)
            paths.append("/v1/answers/\(id)/events")
            // Reads only what follows the last token (`complete`) on the owner: it hears when the
            // whole answer is appended, and costs the server next to nothing to serve.
            sentinels.append((owner.port, "/v1/answers/\(id)/events?after=\(tokens)"))
        }
        let targets = paths.flatMap { path in
            nodes.flatMap { node in Array(repeating: (port: node.port, path: path), count: readersPerAnswerPerNode) }
        }
        let connected = try await client.connect(targets + sentinels, expectedTokens: tokens, recordsLatencies: false)
        try await Task.sleep(for: .milliseconds(500))
        let load = MachineLoad.loadAverage()
        let cpuBefore = nodes.reduce(0) { $0 + $1.cpuSeconds() }
        let (machineBefore, clientBefore) = (MachineLoad.busyCPUSeconds(), processCPUSeconds())
        let goTime = monotonicNanoseconds()
        for node in nodes { node.go() }
        let all = await StreamsBenchmark.results(of: connected, deadline: .seconds(600))
        await StreamsBenchmark.close(connected)
        let cpuUsed = nodes.reduce(0) { $0 + $1.cpuSeconds() } - cpuBefore

        let isSentinel = connected.map { $0.path.contains("?after=") }
        let results = zip(all, isSentinel).filter { !$0.1 }.map(\.0)
        let appendedEnds = zip(all, isSentinel).filter { $0.1 }.map(\.0)
        let appendedEnd =
            appendedEnds.allSatisfy(\.completed) ? appendedEnds.map(\.completeArrival).max() ?? goTime : .max
        let deliveredEnd = results.map(\.completeArrival).max() ?? goTime
        let received = results.reduce(0) { $0 + $1.tokens }
        return Outcome(
            appendedPerSecond: appendedEnd == .max
                ? .nan : Double(answers * tokens) / (Double(appendedEnd - goTime) / 1e9),
            appendedSeconds: appendedEnd == .max ? .nan : Double(appendedEnd - goTime) / 1e9,
            deliveredPerSecond: Double(received) / (Double(deliveredEnd - goTime) / 1e9),
            seconds: Double(deliveredEnd - goTime) / 1e9,
            lost: targets.count * tokens - received,
            failures: all.compactMap(\.failure),
            serverCPU: cpuUsed,
            otherCPU: MachineLoad.otherCPUSeconds(
                since: machineBefore, measured: cpuUsed + processCPUSeconds() - clientBefore),
            loadAverage: load)
    }
}
