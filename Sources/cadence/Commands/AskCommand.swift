import ArgumentParser
import CadenceCore
import CadenceStore

/// `cadence ask`: one question, to a research server or a model provider, saved in the history.
struct AskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Ask one question and stream the answer.",
        discussion: """
            cadence ask --url http://127.0.0.1:8080 "How does resume work?"
            cadence ask --url http://127.0.0.1:8080 --resume 3f2a9c "And over WebSocket?"
            cadence ask --provider ollama --model llama3.2 "Why is the sky blue?"
            cadence ask --provider openai --model llama3.2 \\
                --base-url http://127.0.0.1:11434/v1 "Hi"
            cadence ask --research --provider ollama --model llama3.2 "What is BM25?"
            cadence ask --research --search pubmed "Do statins cause muscle pain?"

            Each question and its answer are saved; `cadence chat --list` shows them, and --resume ID \
            asks a follow-up with the conversation so far as context. Ctrl-C cancels the answer, keeping \
            what arrived.

            \(PrintedAnswer.exitStatusHelp)
            """
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var history: HistoryOptions

    @Argument(help: "The question.")
    var question: String

    func validate() throws {
        try CommandInput.validateQuestion(question)
        try source.validateSource()
    }

    func run() async throws {
        try await source.withResearchServer { source in try await ask(with: source) }
    }

    private func ask(with source: SourceOptions) async throws {
        let output = source.format.terminal
        guard let store = try history.openStore() else {
            try await source.answer([ChatTurn(role: "user", content: question)], output: output).conclude()
            return
        }
        let conversation = try await history.openConversation(in: store)
        let recording = await AnswerRecording.begin(
            history.recorder(in: store), in: conversation.id, query: question)
        defer {
            if output.styled {
                output.line(output.dim("Saved in conversation \(conversation.id) · follow up with --resume \(conversation.id)"))
            }
        }
        let answered = try await source.answer(
            conversation.history + [ChatTurn(role: "user", content: question)], output: output, recording: recording)
        try answered.conclude()
    }
}
