import ArgumentParser
import CadenceEngine
import CadenceServer
import Foundation

/// `cadence serve`: the reference research server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference research server: the offline corpus engine, or research with your model.",
        discussion: """
            cadence serve --port 8080
            cadence serve --corpus ~/notes
            cadence serve --provider openai --base-url http://127.0.0.1:11434/v1 --model llama3.2
            cadence serve --provider anthropic --model claude-sonnet-4-5 --corpus ~/notes

            With --provider the model plans the searches, reflects on what they found (up to --max-rounds), \
            and writes the answer; its citations are checked against the passages they cite.
            """
    )

    @Option(name: .long, help: "The port to listen on; 0 picks a free port.")
    var port: Int = 8080

    @Option(name: .long, help: "The address to bind.")
    var host: String = "127.0.0.1"

    @OptionGroup var model: ModelOptions
    @OptionGroup var research: ResearchOptions

    func run() async throws {
        let documents = try research.loadCorpus()
        let engine = research.engine(corpus: documents, model: model)
        let server = ReferenceServer(engine: engine, configuration: ServerConfiguration(host: host, port: port))
        let running = try await server.start(handlingSignals: true)
        TerminalOutput.write("listening on \(running.baseURL)\n", to: STDOUT_FILENO)
        TerminalOutput.error(ResearchOptions.describe(engine, corpus: documents))
        try await running.wait()
    }
}
