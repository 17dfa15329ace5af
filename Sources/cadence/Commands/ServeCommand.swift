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
            cadence serve --provider openai --model llama3.2 \\
                --base-url http://127.0.0.1:11434/v1
            cadence serve --provider anthropic --model claude-sonnet-4-5 --corpus ~/notes
            cadence serve --engine chat --provider ollama --model llama3.2
            cadence serve --host 0.0.0.0 --max-connections 1000 \\
                --token "$(openssl rand -hex 32)"

            cadence serve --postgres postgres://cadence@127.0.0.1:5432/cadence --port 8081

            With --provider the model plans the searches, reflects on what they found (up to --max-rounds), \
            and writes the answer; its citations are checked against the passages they cite. With --engine chat \
            the server relays the model's own answer to each conversation (text, reasoning, refusals, tool \
            calls), resumable like any other answer.

            With --postgres (or CADENCE_POSTGRES_URL) several nodes share their answers: a client that \
            reconnects to any node resumes exactly, and when a node dies the others end its answers as \
            `interrupted` within the lease timeout. Without it, answers live in this process's memory.

            With --token (or $CADENCE_TOKEN) every request but GET /healthz needs Authorization: Bearer TOKEN; \
            clients pass the same --token. A --host other than loopback needs a token, or --allow-anonymous.

            Browsers: a request from a web page is refused (403) unless the page is the server's own or its \
            origin is given with --cors-origin; a POST body must be application/json (415). On loopback, a Host \
            other than the bound address, localhost or a --public-host name gets 421 (DNS rebinding).

            For an app's users, give each their own token: --jwt-secret-file (HS256), or --jwks-file or \
            --jwks-url (RS256, ES256), with --jwt-issuer and --jwt-audience. Each answer and conversation then \
            belongs to its token's sub; --max-answers-per-user and --rate-limit bound each user.
            """
    )

    @Option(name: .long, help: "The port to listen on; 0 picks a free port.")
    var port: Int = 8080

    @Option(name: .long, help: "The address to bind.")
    var host: String = "127.0.0.1"

    @OptionGroup var sharing: SharedAnswersOptions
    @OptionGroup var access: AccessOptions
    @OptionGroup var browser: BrowserOptions
    @OptionGroup var identity: IdentityOptions

    @OptionGroup var model: ModelOptions
    @OptionGroup var research: ResearchOptions
    @OptionGroup var engines: EngineOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            // Bound as is, the port would wrap around (65537 is port 1) instead of failing.
            throw ValidationError("--port must be from 0 (a free port) to 65535, not \(port)")
        }
        if access.requiredToken == nil, !identity.usesJWT, !access.allowAnonymous, !BrowserPolicy.isLoopback(host) {
            throw ValidationError(
                "--host \(host) lets other machines connect, and without a token anyone could use this server: "
                    + "give --token TOKEN (or set CADENCE_TOKEN), or --allow-anonymous to serve without one")
        }
        try model.validateAPIKey()
        try engines.validate(model: model)
    }

    /// The server's settings from the flags and the environment.
    func serverConfiguration() throws -> ServerConfiguration {
        var configuration = research.serverConfiguration(ServerConfiguration(host: host, port: port))
        access.apply(to: &configuration)
        browser.apply(to: &configuration)
        try identity.apply(to: &configuration)
        configuration.postgres = try sharing.postgresConfiguration()
        return configuration
    }

    func run() async throws {
        let documents = try research.loadCorpus()
        let engine = try engines.engine(corpus: documents, model: model, research: research)
        let configuration = try serverConfiguration()
        let server = ReferenceServer(engine: engine, configuration: configuration)
        let running = try await server.start(handlingSignals: true)
        TerminalOutput.write("listening on \(running.baseURL)\n", to: STDOUT_FILENO)
        TerminalOutput.error(EngineOptions.describe(engine, corpus: documents))
        if let postgres = configuration.postgres {
            TerminalOutput.error("answers are shared through PostgreSQL at \(postgres.redactedURL)")
        }
        if configuration.token == nil, configuration.jwt == nil, !BrowserPolicy.isLoopback(host) {
            TerminalOutput.error("warning: serving \(host) without a token (--allow-anonymous)")
        }
        try await running.wait()
    }
}
