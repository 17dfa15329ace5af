import ArgumentParser
import CadenceEngine
import CadenceServer
import Foundation

/// `cadence serve`: the reference research server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference research server (SSE) with the corpus engine."
    )

    @Option(name: .long, help: "The port to listen on; 0 picks a free port.")
    var port: Int = 8080

    @Option(name: .long, help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "A folder of markdown and text files to answer from, instead of the built-in corpus.")
    var corpus: String?

    func run() async throws {
        let documents = try corpus.map { try Corpus(directory: URL(fileURLWithPath: $0)) } ?? Corpus.bundled()
        let server = ReferenceServer(
            engine: CorpusEngine(corpus: documents), configuration: ServerConfiguration(host: host, port: port))
        let running = try await server.start(handlingSignals: true)
        TerminalOutput.write("listening on \(running.baseURL)\n", to: STDOUT_FILENO)
        try await running.wait()
    }
}
