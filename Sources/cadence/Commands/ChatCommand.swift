import ArgumentParser
import CadenceCore
import CadenceStore
import Foundation

/// `cadence chat`: a conversation that keeps its history, in the store and as context.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with a research server or a model provider; each question sees the conversation so far.",
        discussion: """
            Type a question and press Enter. An empty line is ignored; /exit or end of input (Ctrl-D) quits.
            Conversations are saved: --list shows them, --resume ID continues one.
            """
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var history: HistoryOptions

    @Flag(name: .long, help: "List the saved conversations: id, title, last update and how the last answer ended.")
    var list = false

    @Flag(name: .long, help: "With --list: one JSON object per line.")
    var json = false

    func validate() throws {
        if list, history.noHistory { throw ValidationError("--list reads the history; drop --no-history") }
        if json, !list { throw ValidationError("--json goes with --list") }
    }

    func run() async throws {
        if list {
            try await ConversationList.print(store: history.openStore(), json: json)
            return
        }
        try source.validateSource()
        let output = TerminalOutput(plain: source.plain)
        let store = try history.openStore()
        var conversation: Conversation?
        if let store { conversation = try await history.openConversation(in: store) }
        var turns = conversation?.history ?? []
        if let conversation, !conversation.answers.isEmpty {
            let count = conversation.answers.count
            output.line(output.dim("Continuing “\(conversation.title)” (\(count) earlier question\(count == 1 ? "" : "s"))"))
        }
        while true {
            if output.styled { output.write(output.bold("› ")) }
            guard let line = readLine() else { break }
            let question = line.trimmingCharacters(in: .whitespaces)
            if question.isEmpty { continue }
            if question == "/exit" || question == "/quit" { break }
            turns.append(ChatTurn(role: "user", content: question))
            var recording: AnswerRecording?
            if let store, let conversation {
                recording = await AnswerRecording.begin(history.recorder(in: store), in: conversation.id, query: question)
            }
            do {
                let answer = try await source.answer(turns, output: output, recording: recording)
                turns.append(ChatTurn(role: "assistant", content: answer))
            } catch {
                // The reason is on stderr already; the conversation goes on without the failed turn.
                turns.removeLast()
            }
            output.line()
        }
    }
}

/// `cadence chat --list`: one line per conversation.
enum ConversationList {
    static func print(store: SQLiteConversationStore?, json: Bool) async throws {
        guard let store else { return }
        let output = TerminalOutput(plain: json)
        let rows = try await store.conversations()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        if json {
            let iso = ISO8601DateFormatter()
            for row in rows {
                let object: [String: JSONValue] = [
                    "id": .string(row.id), "title": .string(row.title), "updated_at": .string(iso.string(from: row.updatedAt)),
                    "state": row.lastAnswerState.map { .string($0.rawValue) } ?? .null, "questions": .number(Double(row.answerCount)),
                ]
                output.line(JSONValue.object(object).jsonText)
            }
            return
        }
        guard !rows.isEmpty else {
            TerminalOutput.error("no saved conversations in \(store.path)")
            return
        }
        let titleWidth = min(48, rows.map(\.title.count).max() ?? 0)
        for row in rows {
            var title = row.title.count > titleWidth ? String(row.title.prefix(titleWidth - 1)) + "…" : row.title
            title += String(repeating: " ", count: max(0, titleWidth - title.count))
            let state = row.lastAnswerState?.label ?? "no questions"
            output.line("\(output.cyan(row.id))  \(title)  \(output.dim(formatter.string(from: row.updatedAt)))  \(state)")
        }
    }
}
