import AsyncHTTPClient
import Foundation
import Testing

/// `cadence serve --token` and the clients' `--token` / `CADENCE_TOKEN`, on the built binary.
@Suite("The command with a token", .timeLimit(.minutes(4)))
struct TokenCommandTests {
    static let token = "t0ken-for-tests"
    /// No token from the environment the tests run in, unless a test sets one.
    static let noToken = ["CADENCE_TOKEN": ""]
    static let question = "What is BM25?"

    static func ask(
        _ url: String, _ extra: [String], environment: [String: String] = noToken
    ) async throws
        -> CadenceBinary.Result
    {
        try await CadenceBinary.run(
            ["ask", "--url", url, "--plain", "--no-history"] + extra + [question], environment: environment)
    }

    @Test("ask with --token or CADENCE_TOKEN is answered by serve --token; without it fails clearly")
    func askWithAndWithoutTheToken() async throws {
        let serve = try await ServeProcess.start(["--token", Self.token], environment: Self.noToken)
        defer { serve.stop() }

        let answered = try await Self.ask(serve.baseURL, ["--token", Self.token])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("Sources"))

        let fromEnvironment = try await Self.ask(serve.baseURL, [], environment: ["CADENCE_TOKEN": Self.token])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")

        let missing = try await Self.ask(serve.baseURL, [])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("needs a token"), "\(missing.stderr)")
        #expect(missing.stderr.contains("--token") && missing.stderr.contains("CADENCE_TOKEN"))
        #expect(!missing.stderr.contains("reconnecting") && !missing.stderr.contains("attempts"))

        let wrong = try await Self.ask(serve.baseURL, ["--token", "not-the-token"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("refused the token"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not-the-token"), "the token is never printed")
    }

    @Test("demo --url asks a running server, with the token from --token or CADENCE_TOKEN")
    func demoAgainstAURL() async throws {
        let serve = try await ServeProcess.start(["--token", Self.token], environment: Self.noToken)
        defer { serve.stop() }
        let answered = try await CadenceBinary.run(
            ["demo", "--plain", "--url", serve.baseURL, "--token", Self.token, "--question", Self.question],
            environment: Self.noToken)
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("BM25") && answered.stdout.contains("Sources"), "\(answered.stdout)")
        let fromEnvironment = try await CadenceBinary.run(
            ["demo", "--plain", "--url", serve.baseURL, "--question", Self.question],
            environment: ["CADENCE_TOKEN": Self.token])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        let missing = try await CadenceBinary.run(
            ["demo", "--plain", "--url", serve.baseURL, "--question", Self.question], environment: Self.noToken)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("needs a token"), "\(missing.stderr)")
    }

    @Test("the WebSocket and polling transports carry the token too", arguments: ["websocket", "polling"])
    func otherTransports(transport: String) async throws {
        let serve = try await ServeProcess.start(["--token", Self.token], environment: Self.noToken)
        defer { serve.stop() }
        let answered = try await Self.ask(serve.baseURL, ["--transport", transport, "--token", Self.token])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("Sources"))
        let missing = try await Self.ask(serve.baseURL, ["--transport", transport])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("needs a token"), "\(missing.stderr)")
    }

    @Test("--token goes with --url")
    func tokenNeedsAURL() async throws {
        let result = try await CadenceBinary.run(
            ["ask", "--provider", "openai", "--model", "m", "--token", "x", "q"], environment: Self.noToken)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--token goes with --url"))
    }

    @Test("serve refuses an address other than loopback without a token, unless --allow-anonymous")
    func openHostNeedsATokenOrConsent() async throws {
        let refused = try await CadenceBinary.run(
            ["serve", "--host", "0.0.0.0", "--port", "0"], environment: Self.noToken)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--token") && refused.stderr.contains("--allow-anonymous"), "\(refused.stderr)")

        let anonymous = try await ServeProcess.start(
            ["--host", "0.0.0.0", "--allow-anonymous"], environment: Self.noToken)
        defer { anonymous.stop() }
        let port = try #require(anonymous.baseURL.split(separator: ":").last.flatMap { Int($0) })
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/conversations/c/messages"), timeout: .seconds(30))
        #expect(response.status == .notFound, "served without a token (the conversation is unknown)")
        #expect(anonymous.stop().contains("without a token"))

        let withToken = try await ServeProcess.start(["--host", "0.0.0.0"], environment: ["CADENCE_TOKEN": Self.token])
        defer { withToken.stop() }
        let tokenPort = try #require(withToken.baseURL.split(separator: ":").last.flatMap { Int($0) })
        let refusedRequest = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(tokenPort)/v1/conversations/c/messages"), timeout: .seconds(30))
        #expect(refusedRequest.status == .unauthorized)
        let health = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(tokenPort)/healthz"), timeout: .seconds(30))
        #expect(health.status == .ok)
    }

    @Test("serve checks its limits' values")
    func limitValues() async throws {
        for (arguments, message) in [
            (["--max-connections", "0"], "--max-connections"), (["--request-timeout", "0"], "--request-timeout"),
            (["--token", ""], "--token"), (["--max-connections-per-client", "0"], "--max-connections-per-client"),
            (["--idle-timeout", "0"], "--idle-timeout"), (["--body-timeout", "0s"], "--body-timeout"),
            // Past a year: 10000000000 seconds once wrapped to a negative timeout that reset every connection.
            (["--request-timeout", "10000000000"], "longer than a year"), (["--idle-timeout", "8761h"], "--idle-timeout"),
            (["--body-timeout", "1e12"], "--body-timeout"),
        ] {
            let result = try await CadenceBinary.run(["serve", "--port", "0"] + arguments, environment: Self.noToken)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message))
        }
    }
}
