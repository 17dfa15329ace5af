import ArgumentParser
import CadenceCore

/// `cadence chat`: a line-based conversation that keeps its history.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with a research server or a model provider; each question sees the conversation so far.",
        discussion: "Type a question and press Enter. An empty line is ignored; /exit or end of input (Ctrl-D) quits."
    )

    @OptionGroup var source: SourceOptions

    func run() async throws {
        let output = TerminalOutput(plain: source.plain)
        var turns: [ChatTurn] = []
        while true {
            if output.styled { output.write(output.bold("› ")) }
            guard let line = readLine() else { break }
            let question = line.trimmingCharacters(in: .whitespaces)
            if question.isEmpty { continue }
            if question == "/exit" || question == "/quit" { break }
            turns.append(ChatTurn(role: "user", content: question))
            do {
                let answer = try await source.answer(turns, output: output)
                turns.append(ChatTurn(role: "assistant", content: answer))
            } catch {
                // The reason is on stderr already; the conversation goes on without the failed turn.
                turns.removeLast()
            }
            output.line()
        }
    }
}
