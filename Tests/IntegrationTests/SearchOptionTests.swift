import CadenceTesting
import Foundation
import Testing

/// `--search` mistakes, caught before anything runs, with a message that says what to do.
@Suite("The --search option")
struct SearchOptionTests {
    static let noKeys = CommandMistakeTests.noKeys.merging(["BRAVE_API_KEY": "", "TAVILY_API_KEY": ""]) { $1 }

    @Test(
        "an unknown source, searxng without its URL, and brave or tavily without a key are usage errors",
        arguments: [
            (["serve", "--port", "0", "--search", "google"], "unknown search source \"google\""),
            (["demo", "--plain", "--search", "searxng"], "--search searxng needs the instance's URL"),
            (
                ["ask", "--research", "--provider", "ollama", "--model", "m", "--search", "brave", "Hi"],
                "--search brave needs an API key in BRAVE_API_KEY"
            ),
            (["chat", "--research", "--provider", "ollama", "--model", "m", "--search", "tavily", "--plain"], "TAVILY_API_KEY"),
            (["serve", "--port", "0", "--search-budget", "0"], "--search-budget must be longer than zero"),
            (["ask", "--url", "http://127.0.0.1:1", "--search", "pubmed", "Hi"], "--search goes with --research"),
            (["ask", "--research", "--url", "http://127.0.0.1:1", "Hi"], "--research starts its own research server"),
        ])
    func mistakes(arguments: [String], says: String) async throws {
        let result = try await CadenceBinary.run(arguments, environment: Self.noKeys)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
    }
}
