import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceClient
import CadenceResearch
import CadenceServer
import Foundation

/// The relay side of the relay benchmark, run as a child process (`CadenceBenchmarks relay-node
/// --model-url URL`): a ``ReferenceServer`` whose engine is a ``ChatEngine`` calling the
/// OpenAI-compatible model at `URL`, as `cadence serve --engine chat --provider openai --base-url URL`
/// runs it. It prints `port N` once it listens and stops on `quit` or the end of its input.
enum RelayNode {
    static func run(arguments: some Sequence<String>) async throws {
        let options = try Options(arguments, known: ["model-url", "connections"], flags: [])
        guard let url = options.string("model-url") else { throw BenchmarkError("relay-node needs --model-url URL") }
        raiseOpenFileLimit()
        let http = BenchmarkHTTPClient.make(connections: try options.integer("connections", default: 256))
        let model = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: url, model: "timestamp"), httpClient: http)
        var configuration = ServerConfiguration()
        configuration.port = 0
        // Every reader comes from this machine's one address.
        configuration.maxConnectionsPerClient = nil
        let running = try await ReferenceServer(engine: ChatEngine(client: model), configuration: configuration).start()
        FileHandle.standardOutput.write(Data("port \(running.port)\n".utf8))
        for await line in StandardInputLines.stream() where line == "quit" { break }
        await running.shutdown()
        try await http.shutdown()
    }
}
