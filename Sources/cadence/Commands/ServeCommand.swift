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

            cadence serve --postgres postgres://cadence@127.0.0.1:5432/cadence --port 8081

            With --provider the model plans the searches, reflects on what they found (up to --max-rounds), \
            and writes the answer; its citations are checked against the passages they cite.

            With --postgres (or CADENCE_POSTGRES_URL) several nodes share their answers: a client that \
            reconnects to any node resumes exactly, and when a node dies the others end its answers as \
            `interrupted` within the lease timeout. Without it, answers live in this process's memory.
            """
    )

    @Option(name: .long, help: "The port to listen on; 0 picks a free port.")
    var port: Int = 8080

    @Option(name: .long, help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "Share answers with other nodes through this PostgreSQL database (or set CADENCE_POSTGRES_URL).")
    var postgres: String?

    @Option(name: .long, help: "With --postgres: seconds a node may go silent before others end its answers as interrupted.")
    var leaseTimeout: Double = 10

    @Option(name: .long, help: "With --postgres: seconds a finished answer stays available for resuming.")
    var retention: Double = 24 * 3600

    @Option(name: .long, help: "The most answers this node produces at once; more get 503 with Retry-After.")
    var maxAnswers: Int?

    @OptionGroup var model: ModelOptions
    @OptionGroup var research: ResearchOptions

    func validate() throws {
        if !(leaseTimeout > 0) { throw ValidationError("--lease-timeout must be a positive number of seconds") }
        if !(retention >= 0) { throw ValidationError("--retention must not be negative") }
        if let maxAnswers, maxAnswers < 1 { throw ValidationError("--max-answers must be at least 1") }
    }

    /// The server's settings from the flags and the environment.
    func serverConfiguration() throws -> ServerConfiguration {
        var configuration = ServerConfiguration(host: host, port: port, maxAnswers: maxAnswers)
        let environment = ProcessInfo.processInfo.environment
        if let url = postgres ?? environment["CADENCE_POSTGRES_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                configuration.postgres = try PostgresConfiguration(
                    url: url, leaseTimeout: .milliseconds(Int(leaseTimeout * 1000)),
                    retention: .milliseconds(Int(retention * 1000)))
            } catch {
                throw ValidationError("\(error)")
            }
        }
        return configuration
    }

    func run() async throws {
        let documents = try research.loadCorpus()
        let engine = research.engine(corpus: documents, model: model)
        let configuration = try serverConfiguration()
        let server = ReferenceServer(engine: engine, configuration: configuration)
        let running = try await server.start(handlingSignals: true)
        TerminalOutput.write("listening on \(running.baseURL)\n", to: STDOUT_FILENO)
        TerminalOutput.error(ResearchOptions.describe(engine, corpus: documents))
        if let postgres = configuration.postgres {
            TerminalOutput.error("answers are shared through PostgreSQL at \(postgres.redactedURL)")
        }
        try await running.wait()
    }
}
