import ArgumentParser
import CadenceCore

/// `cadence ask`: one question, to a research server or a model provider.
struct AskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Ask one question and stream the answer.",
        discussion: """
            cadence ask --url http://127.0.0.1:8080 "How does resume work?"
            cadence ask --provider ollama --model llama3.2 "Why is the sky blue?"
            cadence ask --provider openai --base-url http://127.0.0.1:11434/v1 --model llama3.2 "Hi"
            """
    )

    @OptionGroup var source: SourceOptions

    @Argument(help: "The question.")
    var question: String

    func run() async throws {
        _ = try await source.answer([ChatTurn(role: "user", content: question)], output: TerminalOutput(plain: source.plain))
    }
}
