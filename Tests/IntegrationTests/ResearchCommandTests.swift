import CadenceCore
import CadenceTesting
import Foundation
import Testing

/// The built `cadence` binary researching with a scripted model: `serve --provider` answered
/// through `ask --url`, `demo --plain --provider`, and `ask --research` with its embedded server.
@Suite("cadence researching with a model")
struct ResearchCommandTests {
    static let key = "sk-never-print-me-4711"

    /// A model that plans, is satisfied, and writes one supported and one unsupported citation.
    static func startModel() async throws -> ScriptedModelServer {
        try await ScriptedModelServer.start { request, _ in
            switch ModelResearchServerTests.stage(of: request) {
            case .plan: ModelResearchServerTests.plan
            case .reflect: ModelResearchServerTests.enough
            case .write:
                .text([
                    ModelResearchServerTests.claimFromFirstSource(request) + " [1]. ",
                    "Bananas are a yellow tropical fruit [2]. Invented [9].",
                ])
            }
        }
    }

    static func lines(_ stdout: String) -> [JSONValue] {
        stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
    }

    @Test func serveWithAProviderAnswersAskOverItsURL() async throws {
        let model = try await Self.startModel()
        let serve = try await ServeProcess.start([
            "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted", "--api-key", Self.key,
        ])
        let result = try await CadenceBinary.run([
            "ask", "--url", serve.baseURL, "--json", "--no-history", "How does Cadence resume an interrupted stream?",
        ])
        let serveErrors = serve.stop()
        await model.shutdown()

        #expect(result.status == 0, "\(result.stderr)")
        let updates = Self.lines(result.stdout)
        let completed = try #require(updates.last { $0["type"] == .string("completed") })
        #expect(completed["metadata"]?["engine"] == .string("model-research"))
        #expect(completed["metadata"]?["citations"]?.arrayValue?.map { $0["supported"] } == [.bool(true), .bool(false)])
        #expect(completed["metadata"]?["citations_dropped"] == .number(1))
        let text = updates.compactMap { $0["type"] == .string("text") ? $0["text"]?.stringValue : nil }.joined()
        #expect(text.contains("[1]") && text.contains("[2]") && !text.contains("[9]"))

        #expect(model.requests.first?.headers["authorization"] == "Bearer \(Self.key)", "the key reaches the model")
        #expect(!result.stdout.contains(Self.key) && !result.stderr.contains(Self.key) && !serveErrors.contains(Self.key))
    }

    @Test func demoResearchesWithALocalModel() async throws {
        let model = try await Self.startModel()
        let result = try await CadenceBinary.run(
            ["demo", "--plain", "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted"],
            environment: ["OPENAI_API_KEY": Self.key])
        await model.shutdown()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Bananas are a yellow tropical fruit"))
        #expect(result.stdout.contains("Sources"))
        #expect(!result.stdout.contains("[9]"))
        #expect(!result.stdout.contains(Self.key) && !result.stderr.contains(Self.key))
        #expect(model.requests.count == 3)
    }

    @Test func askResearchUsesAnEmbeddedServer() async throws {
        let model = try await Self.startModel()
        let result = try await CadenceBinary.run([
            "ask", "--research", "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted",
            "--plain", "--no-history", "How does Cadence resume an interrupted stream?",
        ])
        await model.shutdown()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Bananas are a yellow tropical fruit"))
        #expect(result.stdout.contains("Not supported by the cited source"))
        #expect(result.stdout.contains("  [2]? \"Bananas are a yellow tropical fruit\""))
        #expect(model.requests.count == 3)
        #expect(ModelResearchServerTests.stage(of: model.requests[0]) == .plan)
    }

    @Test func withoutAProviderServeStaysOnTheCorpusEngine() async throws {
        let serve = try await ServeProcess.start([])
        let result = try await CadenceBinary.run([
            "ask", "--url", serve.baseURL, "--json", "--no-history", "How does Cadence resume an interrupted stream?",
        ])
        serve.stop()
        let completed = Self.lines(result.stdout).last { $0["type"] == .string("completed") }
        #expect(completed?["metadata"]?["engine"] != .string("model-research"))
        #expect(completed?["metadata"]?["engine"] != nil)
    }

    @Test func aFollowUpWithResumeSendsTheConversationToTheModel() async throws {
        let model = try await Self.startModel()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-research-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("conversations.sqlite").path
        let research = ["ask", "--research", "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted", "--plain"]
        let first = try await CadenceBinary.run(research + ["--database", database, "How does Cadence resume a stream?"])
        #expect(first.status == 0, "\(first.stderr)")
        let list = try await CadenceBinary.run(["chat", "--list", "--json", "--database", database])
        let id = try #require(Self.lines(list.stdout).first?["id"]?.stringValue)
        let second = try await CadenceBinary.run(
            research + ["--database", database, "--resume", id, "And what if the server forgot it?"])
        await model.shutdown()
        #expect(second.status == 0, "\(second.stderr)")

        let followUpPlan = try #require(model.requests.dropFirst(3).first)
        #expect(ModelResearchServerTests.stage(of: followUpPlan) == .plan)
        let contents = followUpPlan.messages.map(\.content)
        #expect(contents.contains("How does Cadence resume a stream?"))
        #expect(contents.contains { $0.contains("Bananas are a yellow tropical fruit") }, "the first answer is history")
        #expect(contents.last?.contains("And what if the server forgot it?") == true)
    }
}
