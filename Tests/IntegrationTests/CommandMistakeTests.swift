import CadenceEngine
import CadenceServer
import CadenceTesting
import Foundation
import Testing

/// What a new user meets first when something is missing or wrong: the message says what happened
/// and what to do, the usage shown is the command's own, and the exit status tells a usage error (64)
/// from a failure (1).
@Suite("The cadence command's answers to mistakes")
struct CommandMistakeTests {
    /// No key in the environment, whatever the machine running the tests has set.
    static let noKeys = ["OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "GEMINI_API_KEY": "", "CADENCE_TOKEN": ""]

    @Test(
        "ask or chat with nowhere to ask is a usage error that shows that command's usage",
        arguments: [(["ask", "Hi"], "Usage: cadence ask"), (["chat", "--plain"], "Usage: cadence chat")])
    func nowhereToAsk(arguments: [String], usage: String) async throws {
        // The check ran in run(), so ArgumentParser printed the root's "Usage: cadence <subcommand>".
        let result = try await CadenceBinary.run(arguments)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("say where to ask: --url URL"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains(usage), "stderr: \(result.stderr)")
    }

    @Test(
        "a hosted provider's public API without a key is a usage error naming the variable, before any request",
        arguments: [
            (["ask", "--provider", "openai", "--model", "gpt-4o-mini", "Hi"], "OPENAI_API_KEY"),
            (["ask", "--provider", "anthropic", "--model", "m", "--api-key", "", "Hi"], "ANTHROPIC_API_KEY"),
            (["chat", "--provider", "gemini", "--model", "gemini-2.5-flash", "--plain"], "GEMINI_API_KEY"),
            (["ask", "--research", "--provider", "openai", "--model", "m", "Hi"], "OPENAI_API_KEY"),
            (["demo", "--plain", "--provider", "anthropic", "--model", "m"], "ANTHROPIC_API_KEY"),
            (["serve", "--port", "0", "--provider", "gemini", "--model", "m"], "GEMINI_API_KEY"),
        ])
    func hostedProviderWithoutKey(arguments: [String], variable: String) async throws {
        // Before, the request went out without a key: offline, a DNS error for api.openai.com; online, a
        // 401 after the round trip, and a conversation saved as failed.
        let result = try await CadenceBinary.run(arguments, environment: Self.noKeys)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        let says = "needs an API key: pass --api-key KEY or set \(variable)"
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
    }

    @Test(
        "--fetch-allow takes HOST:PORT, on serve, demo, ask and chat",
        arguments: [
            ["serve", "--port", "0", "--fetch-allow", "127.0.0.1"], ["demo", "--plain", "--fetch-allow", "[::1]"],
            ["ask", "--research", "--provider", "ollama", "--model", "m", "--fetch-allow", "host:0", "Hi"],
            ["chat", "--research", "--provider", "ollama", "--model", "m", "--plain", "--fetch-allow", "::1:80"],
        ])
    func fetchAllowNeedsHostAndPort(arguments: [String]) async throws {
        let result = try await CadenceBinary.run(arguments, environment: Self.noKeys)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--fetch-allow takes HOST:PORT"), "stderr: \(result.stderr)")
    }

    @Test("a key from the environment or the flag is enough, and so is a --base-url, which may need none")
    func keyOrBaseURLPasses() async throws {
        // Serving asks the model nothing until a question comes, so these start without the network.
        for (arguments, environment) in [
            (["--provider", "gemini", "--model", "m"], ["GEMINI_API_KEY": "key-from-env"]),
            (["--provider", "anthropic", "--model", "m", "--api-key", "key-from-flag"], [:]),
            (["--provider", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"], [:]),
        ] {
            let serve = try await ServeProcess.start(arguments, environment: Self.noKeys.merging(environment) { $1 })
            #expect(serve.baseURL.hasPrefix("http://127.0.0.1:"), "\(arguments)")
            serve.stop()
        }
    }

    @Test("an input file that cannot be read fails (exit 1) with the system's reason, not a usage error",
        arguments: [["decode", "--events"], ["render"]])
    func unreadableInput(command: [String]) async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-missing-\(UUID()).md").path
        let result = try await CadenceBinary.run(command + [missing])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("cannot read \(missing): No such file or directory"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Usage:"), "stderr: \(result.stderr)")
    }

    @Test("render past --max-bytes prints the blocks that ended before the limit", arguments: [nil, 1, 3] as [Int?])
    func renderKeepsTheBlocksBeforeTheLimit(chunkSize: Int?) async throws {
        // 20 bytes end inside "para two": the heading and the first paragraph are whole. Before, the one
        // read that passed the limit was dropped whole, and nothing was printed.
        let markdown = "# Hi\n\npara one\n\npara two is longer\n"
        let chunking = chunkSize.map { ["--chunk-size", String($0)] } ?? []
        let result = try await CadenceBinary.run(
            ["render", "--to", "html", "--max-bytes", "20"] + chunking + ["-"], stdin: Data(markdown.utf8))
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stdout == "<h1>Hi</h1>\n<p>para one</p>\n")
        #expect(result.stderr.contains("larger than the limit of 20 bytes"), "stderr: \(result.stderr)")
    }

    @Test("render --nul-separated renders each document apart, at every chunk size", arguments: [nil, 1, 3] as [Int?])
    func renderRendersNULSeparatedDocumentsApart(chunkSize: Int?) async throws {
        // The second document's definition would give the first's [1] a link if they were one; the
        // empty third renders as nothing; the fourth has no NUL after it.
        let markdown = "[1]\0- x\n- y\n\n[1]: /u\0\0# h"
        let chunking = chunkSize.map { ["--chunk-size", String($0)] } ?? []
        let result = try await CadenceBinary.run(
            ["render", "--strict", "--to", "html", "--nul-separated"] + chunking + ["-"], stdin: Data(markdown.utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "<p>[1]</p>\n\0<ul>\n<li>x</li>\n<li>y</li>\n</ul>\n\0\0<h1>h</h1>\n")
    }

    @Test("serve on a port in use names the address and the reason")
    func servePortInUse() async throws {
        let running = try await ReferenceServer(engine: CorpusEngine(corpus: try Corpus.bundled())).start()
        defer { Task { await running.shutdown() } }
        let result = try await CadenceBinary.run(["serve", "--port", String(running.port)])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let says = "cannot listen on 127.0.0.1:\(running.port): Address already in use"
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("errno"), "stderr: \(result.stderr)")
    }

    @Test("serve --postgres where nothing listens fails at once with the system's reason")
    func servePostgresRefused() async throws {
        // The pool retried the refused connection until the 15 s deadline, then said only "no answer
        // within 15.0 seconds" (and PostgresNIO could warn that run() had not been called yet).
        let result = try await CadenceBinary.run(["serve", "--port", "0", "--postgres", "postgres://x@127.0.0.1:1/x"])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let says = "could not connect to PostgreSQL at postgres://x@127.0.0.1:1/x: Connection refused"
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("run()"), "stderr: \(result.stderr)")
    }

    @Test(
        "serve --postgres with a database that does not exist says so, in PostgreSQL's words",
        .needsPostgres)
    func servePostgresNoSuchDatabase() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        let url = "postgres://\(PostgresTestServer.user)@127.0.0.1:\(postgres.port)/nowhere"
        let result = try await CadenceBinary.run(["serve", "--port", "0", "--postgres", url])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let says = "could not connect to PostgreSQL at \(url): database \"nowhere\" does not exist"
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
    }

    @Test(
        "every example in --help is on lines of its own, whole at 80 columns",
        arguments: ["demo", "ask", "chat", "serve", "decode", "render", "pace"])
    func helpExamplesAreWhole(command: String) async throws {
        // `cadence help` renders at 80 columns in a pipe; an example longer than that wrapped
        // mid-command ("--model" on one line, "llama3.2 \"Hi\"" on the next) and could not be pasted.
        let result = try await CadenceBinary.run([command, "--help"])
        #expect(result.status == 0)
        let lines = result.stdout.components(separatedBy: "\n")
        var inExample = false
        for (index, line) in lines.enumerated().dropLast() {
            inExample = line.hasPrefix("cadence ") || (inExample && lines[index - 1].hasSuffix(" \\"))
            guard inExample, !line.hasSuffix(" \\") else { continue }
            let next = lines[index + 1]
            #expect(
                next.isEmpty || next.hasPrefix("cadence "), "\(command) --help: “\(line)” runs on as “\(next)”")
        }
    }
}
