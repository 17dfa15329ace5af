import ArgumentParser
import CadenceCore
import CadenceStore
import CadenceUI
import Foundation

/// `cadence chat`: a conversation that keeps its history, in the store and as context.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with a research server or a model provider; each question sees the conversation so far.",
        discussion: """
            With --research --provider P --model M, each question is researched with the model over the \
            built-in corpus (or --corpus DIR): planned searches, reflection, and a written answer whose \
            citations are checked against their sources. --search NAME[=URL] (repeatable) searches the web \
            or papers instead; with --research and no model, the offline engine quotes what they find.
            Type a question and press Enter. An empty line is ignored; /exit or end of input (Ctrl-D) quits.
            Conversations are saved: --list shows them, --resume ID continues one, \
            --rename ID --title T renames one and --delete ID deletes one (an id, or its first characters).
            Line by line (--plain, or in a pipe), Ctrl-C cancels the answer streaming and ends the chat; \
            the exit status is that of the worst-ended answer (cancelled, then failed, then timed out).

            \(PrintedAnswer.exitStatusHelp)
            """
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var history: HistoryOptions

    @Flag(name: .long, help: "List the saved conversations: id, title, last update and how the last answer ended (JSON lines with --json).")
    var list = false

    @Option(name: .long, help: ArgumentHelp("Rename a saved conversation (with --title).", valueName: "id"))
    var rename: String?

    @Option(name: .long, help: "The new title, with --rename.")
    var title: String?

    @Option(name: .long, help: ArgumentHelp("Delete a saved conversation and its answers.", valueName: "id"))
    var delete: String?

    @Option(name: .long, help: "How text appears in the full-screen UI: adaptive, char, word or instant.")
    var pace: PaceCommand.PaceMode = .adaptive

    func validate() throws {
        let actions = [list ? "--list" : nil, rename.map { _ in "--rename" }, delete.map { _ in "--delete" }].compactMap { $0 }
        if actions.count > 1 { throw ValidationError("choose one of \(actions.joined(separator: ", "))") }
        if let action = actions.first {
            if history.noHistory { throw ValidationError("\(action) works on the history; drop --no-history") }
            if history.resume != nil { throw ValidationError("\(action) does not chat; drop --resume") }
        }
        try HistoryOptions.validateID(rename, option: "--rename")
        try HistoryOptions.validateID(delete, option: "--delete")
        if rename != nil, title?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true {
            throw ValidationError("--rename needs a non-empty --title")
        }
        if title != nil, rename == nil { throw ValidationError("--title goes with --rename ID") }
        if actions.isEmpty { try source.validateSource() }
    }

    func run() async throws {
        if list {
            try await ConversationList.print(store: history.openStore(answering: false), json: source.format.json)
            return
        }
        if let rename, let title, let store = try history.openStore(answering: false) {
            let match = try await HistoryOptions.find(rename, in: store)
            try await store.renameConversation(match.id, to: title)
            print("Renamed \(match.id): \(title.trimmingCharacters(in: .whitespacesAndNewlines))")
            return
        }
        if let delete, let store = try history.openStore(answering: false) {
            let match = try await HistoryOptions.find(delete, in: store)
            try await store.deleteConversation(match.id)
            let questions = "\(match.answerCount) question\(match.answerCount == 1 ? "" : "s")"
            print("Deleted \(match.id): “\(match.title)”, \(questions)")
            return
        }
        try await source.withResearchServer { source in try await chat(with: source) }
    }

    private func chat(with source: SourceOptions) async throws {
        let output = source.format.terminal
        let store = try history.openStore()
        var conversation: Conversation?
        if let store { conversation = try await history.openConversation(in: store) }
        var worst: PrintedAnswer?
        if source.format.allowsFullScreen {
            try await runFullScreen(source: source, store: store, conversation: conversation)
        } else {
            worst = try await runLines(source: source, output: output, store: store, conversation: conversation)
        }
        if let store, let conversation { try await Self.finish(conversation.id, in: store, output: output) }
        if let worst, !worst.exitCode.isSuccess { throw worst.exitCode }
    }

    /// The full-screen UI: earlier answers shown in full, new ones paced and saved as they stream.
    private func runFullScreen(source: SourceOptions, store: SQLiteConversationStore?, conversation: Conversation?)
        async throws
    {
        let open = source.answerSource()
        let chat: ChatViewModel
        if let store, let conversation {
            chat = await ChatViewModel(
                clock: ContinuousClock(), restoring: conversation, store: store,
                checkpointInterval: .milliseconds(history.checkpointIntervalMs), pacing: pace.pacerMode, open: open)
        } else {
            chat = await ChatViewModel(clock: ContinuousClock(), pacing: pace.pacerMode, open: open)
        }
        try await FullScreen.run(chat: chat, initialQuestion: nil, history: conversation?.answers.map(\.query) ?? [])
    }

    /// Line by line, for pipes, scripts and `--plain`: read a question, stream its answer, repeat.
    /// Returns the answer that ended worst (by ``PrintedAnswer/severity``), which sets the exit
    /// status; `nil` when no question was asked.
    private func runLines(
        source: SourceOptions, output: TerminalOutput, store: SQLiteConversationStore?, conversation: Conversation?
    ) async throws -> PrintedAnswer?
    {
        var worst: PrintedAnswer?
        var turns = conversation?.history ?? []
        if let conversation, !conversation.answers.isEmpty, output.styled {
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
            let answered = try await source.answer(turns, output: output, recording: recording)
            answered.report()
            if answered.severity > worst?.severity ?? 0 { worst = answered }
            if answered.ending.isComplete {
                turns.append(ChatTurn(role: "assistant", content: answered.text))
            } else {
                turns.removeLast()  // the conversation goes on without the unfinished turn
            }
            if !source.format.json { output.line() }
            // Ctrl-C ends the chat, as it would at the prompt; so does a closed output.
            if answered.endsTheChat { break }
        }
        return worst
    }

    /// A conversation nothing was asked in is not kept; one that was says how to continue it.
    static func finish(_ id: String, in store: SQLiteConversationStore, output: TerminalOutput) async throws {
        guard let saved = try await store.conversation(id) else { return }
        if saved.answers.isEmpty {
            try await store.deleteConversation(id)
        } else if output.styled {
            output.line(output.dim("Saved as conversation \(id) · continue with: cadence chat --resume \(id)"))
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
            var title = row.title.clipped(to: titleWidth)
            title += String(repeating: " ", count: max(0, titleWidth - title.count))
            let state = row.lastAnswerState?.label ?? "no questions"
            output.line("\(output.cyan(row.id))  \(title)  \(output.dim(formatter.string(from: row.updatedAt)))  \(state)")
        }
    }
}
