import Foundation
import NIOPosix

/// Events per second appended and fanned out through PostgreSQL with three nodes, against one
/// in-memory node in the same run, with the same answers and the same readers.
///
///     CadenceFanout shared [--nodes 3] [--answers 20] [--tokens 10000] [--readers-per-node 1]
///         [--postgres URL] [--client-threads 2] [--json]
///
/// Every answer's engine produces its tokens as fast as the server takes them. In the PostgreSQL
/// run the answers start round-robin on the nodes and every answer has `--readers-per-node` readers
/// on every node (so most readers follow an answer owned elsewhere, through a notification and a
/// fetch); in the memory run all the same readers sit on the one node.
///
/// - appended: the events of all answers, divided by the time from the start signal until the last
///   answer's `complete` first reached any reader (a reader on the owner hears it as soon as its
///   append commits).
/// - delivered: the events received by all readers, divided by the time until the last reader
///   received `complete`.
enum SharedAnswersBenchmark {
    struct Outcome {
        var appendedPerSecond: Double
        var deliveredPerSecond: Double
        var seconds: Double
        var lost: Int
        var failures: [String]
        var serverCPU: Double
    }

    static func run(_ arguments: [String]) async throws {
        let options = try Options(
            arguments, known: ["nodes", "answers", "tokens", "readers-per-node", "postgres", "client-threads"])
        let nodeCount = max(1, try options.integer("nodes", default: 3))
        let answers = max(1, try options.integer("answers", default: 20))
        let tokens = try options.integer("tokens", default: 10_000)
        let perNode = max(1, try options.integer("readers-per-node", default: 1))
        raiseOpenFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, try options.integer("client-threads", default: 2)))
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
        figures.add("memory_appended_events_per_s", memory.appendedPerSecond, decimals: 0, "one in-memory node")
        figures.add("memory_delivered_events_per_s", memory.deliveredPerSecond, decimals: 0)
        figures.add("memory_s", memory.seconds, decimals: 2)
        figures.add("memory_server_cpu_s", memory.serverCPU, decimals: 2)
        figures.add("memory_lost_events", memory.lost)
        figures.add("postgres_appended_events_per_s", shared.appendedPerSecond, decimals: 0, "\(nodeCount) nodes, one PostgreSQL")
        figures.add("postgres_delivered_events_per_s", shared.deliveredPerSecond, decimals: 0)
        figures.add("postgres_s", shared.seconds, decimals: 2)
        figures.add("postgres_server_cpu_s", shared.serverCPU, decimals: 2, "all nodes, PostgreSQL itself not counted")
        figures.add("postgres_lost_events", shared.lost)
        figures.add("appended_ratio", shared.appendedPerSecond / memory.appendedPerSecond, decimals: 3, "PostgreSQL ÷ memory")
        figures.add("delivered_ratio", shared.deliveredPerSecond / memory.deliveredPerSecond, decimals: 3, "PostgreSQL ÷ memory")
        if let failure = (memory.failures + shared.failures).first { figures.add("first_failure", failure) }
        print(options.json ? figures.json : figures.table(title: "shared: \(answers * tokens) events, \(nodeCount) nodes through PostgreSQL vs one in memory"))
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
        for index in 0..<answers {
            let id = try await client.startAnswer(port: nodes[index % nodes.count].port, query: plan.query)
            paths.append("/v1/answers/\(id)/events")
        }
        let targets = paths.flatMap { path in
            nodes.flatMap { node in Array(repeating: (port: node.port, path: path), count: readersPerAnswerPerNode) }
        }
        let readers = try await client.connect(targets, expectedTokens: tokens, recordsLatencies: false)
        try await Task.sleep(for: .milliseconds(500))
        let cpuBefore = nodes.reduce(0) { $0 + $1.cpuSeconds() }
        let goTime = monotonicNanoseconds()
        for node in nodes { node.go() }
        let results = await StreamsBenchmark.results(of: readers, deadline: .seconds(600))
        let cpuUsed = nodes.reduce(0) { $0 + $1.cpuSeconds() } - cpuBefore

        // An answer is appended when its `complete` first reached a reader (one on its owner node).
        var firstComplete: [String: Int64] = [:]
        for (reader, result) in zip(readers, results) where result.completed {
            firstComplete[reader.path] = min(firstComplete[reader.path] ?? .max, result.completeArrival)
        }
        let appendedEnd = firstComplete.values.max() ?? goTime
        let deliveredEnd = results.map(\.completeArrival).max() ?? goTime
        let received = results.reduce(0) { $0 + $1.tokens }
        let appended = paths.count == firstComplete.count ? answers * tokens : 0
        return Outcome(
            appendedPerSecond: Double(appended) / (Double(appendedEnd - goTime) / 1e9),
            deliveredPerSecond: Double(received) / (Double(deliveredEnd - goTime) / 1e9),
            seconds: Double(deliveredEnd - goTime) / 1e9,
            lost: targets.count * tokens - received,
            failures: results.compactMap(\.failure),
            serverCPU: cpuUsed)
    }
}
