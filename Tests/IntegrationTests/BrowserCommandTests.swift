import Foundation
import Testing

/// `cadence serve --cors-origin` and `--public-host` on the built command: the flags reach the
/// server, `ask --url` (which sends no `Origin`) is served as before, and an origin that would let
/// every page in is a usage error.
@Suite("cadence serve and browsers", .timeLimit(.minutes(2)))
struct BrowserCommandTests {
    @Test("serve --cors-origin answers that origin's preflight, --public-host adds a name, and ask --url still works")
    func flagsReachTheServer() async throws {
        let serve = try await ServeProcess.start([
            "--cors-origin", "http://app.test:5173", "--public-host", "cadence.test",
        ])
        defer { _ = serve.stop() }
        let port = try #require(serve.baseURL.split(separator: ":").last.flatMap { Int($0) })

        let preflight =
            "OPTIONS /v1/answers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccess-Control-Request-Method: POST\r\n"
        let allowed = try await BrowserGuardTests.exchange(preflight + "Origin: http://app.test:5173\r\n", port: port)
        #expect(allowed.status == 204, "\(allowed.head)")
        #expect(
            allowed.head.lowercased().contains("access-control-allow-origin: http://app.test:5173"), "\(allowed.head)")
        let refused = try await BrowserGuardTests.exchange(preflight + "Origin: http://other.test\r\n", port: port)
        #expect(refused.status == 403, "\(refused.head)")

        let named = try await BrowserGuardTests.exchange("GET /healthz HTTP/1.1\r\nHost: cadence.test\r\n", port: port)
        #expect(named.status == 200, "\(named.head)")
        let unknown = try await BrowserGuardTests.exchange(
            "GET /healthz HTTP/1.1\r\nHost: evil.example\r\n", port: port)
        #expect(unknown.status == 421, "\(unknown.head)")

        let ask = try await CadenceBinary.run([
            "ask", "--url", serve.baseURL, "--no-history", "--plain", "What is SSE?",
        ])
        #expect(ask.status == 0, "stderr: \(ask.stderr)")
        #expect(!ask.stdout.isEmpty)
    }

    @Test(
        "serve --cors-origin with * , null or no origin at all is a usage error that says why",
        arguments: [("*", "any web page"), ("null", "any web page"), ("app.example.com", "is not an origin")])
    func invalidOrigin(origin: String, says: String) async throws {
        let result = try await CadenceBinary.run(["serve", "--port", "0", "--cors-origin", origin])
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--cors-origin"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
    }
}
