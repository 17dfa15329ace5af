import CadenceBenchmarkKit
import Foundation
import NIOPosix

/// The floor of P6 on its own: the streams benchmark (``StreamsRun``), with the same readers and
/// figures, against the floor server (``FloorServer``, or with `--hummingbird` ``HummingbirdFloor``)
/// in a child process instead of a Cadence node.
enum FloorBenchmark {
    static let usage = """
        usage: CadenceFanout floor [--readers 1000] [--readers-per-answer 100] [--tokens 100]
                 [--interval-ms 100] [--client-threads 2] [--hummingbird] [--per-token] [--json]

        The streams benchmark against the floor: a minimal SwiftNIO server (an HTTP/1 request decoder and
        one handler; no router, no log, no task per reader) in a child process, writing Cadence's SSE
        response head and the same event frames to the same readers at the same rates, each frame built
        once when its token is produced. The same figures as streams. To measure events/s at saturation,
        offer more than the node can carry (readers × 1000 / interval-ms events per second).
        --hummingbird runs the second floor instead: a Hummingbird route that writes the same frames and
        nothing else.
        """

    static func run(_ arguments: [String]) async throws {
        let options = try Options(
            arguments, known: StreamsRun.options, flags: ["json", "per-token", "help", "hummingbird"])
        let hummingbird = options.flags.contains("hummingbird")
        if options.flags.contains("help") { return print(usage) }
        let run = try StreamsRun(options)
        raiseOpenFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: run.clientThreads)
        let outcome: StreamsOutcome
        do {
            outcome = try await measure(run, ReaderClient(group: group), hummingbird: hummingbird)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
        if options.flags.contains("per-token") { outcome.printPerToken() }
        var figures = Figures()
        figures.add("benchmark", "floor")
        figures.add("server", hummingbird ? "hummingbird" : "nio")
        outcome.add(to: &figures)
        print(
            options.json
                ? figures.json
                : figures.table(title: "floor\(hummingbird ? " (Hummingbird)" : ""): \(run.readers) SSE readers"))
    }

    /// `run` against a floor server started for it: SwiftNIO's, or Hummingbird's.
    static func measure(_ run: StreamsRun, _ client: ReaderClient, hummingbird: Bool) async throws -> StreamsOutcome {
        try await NodeProcess.with(arguments: ["floor-node"] + (hummingbird ? ["--hummingbird"] : [])) { node in
            try await run.measure(node, client: client)
        }
    }
}
