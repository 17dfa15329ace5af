import ArgumentParser
import CadenceCore
import CadenceStore
import Foundation

/// Where `ask` and `chat` keep their conversations, and which one to continue.
struct HistoryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The conversation database.",
            discussion: "Default: $CADENCE_DATA_HOME/conversations.sqlite, else the user data directory "
                + "(~/.local/share/cadence on Linux, ~/Library/Application Support/Cadence on macOS)."))
    var database: String?

    @Option(name: .long, help: "Continue a saved conversation: an id from `cadence chat --list`, or its first characters.")
    var resume: String?

    @Flag(name: .long, help: "Keep no history: nothing is read from or written to the database.")
    var noHistory = false

    @Option(name: .long, help: ArgumentHelp("Milliseconds between checkpoints of a streaming answer.", visibility: .hidden))
    var checkpointIntervalMs: Int = 250

    func validate() throws {
        if noHistory, resume != nil { throw ValidationError("--resume needs the history; drop --no-history") }
        try Self.validateID(resume, option: "--resume")
        try DurationArgument.validateMilliseconds(checkpointIntervalMs, option: "--checkpoint-interval-ms")
    }

    /// Checks a conversation id given to `option`: an empty one would be a prefix of every id, so
    /// `--delete ""` would delete the only conversation there is.
    static func validateID(_ id: String?, option: String) throws {
        if let id, id.allSatisfy(\.isWhitespace) {
            throw ValidationError(
                "\(option) needs a conversation id (or its first characters); see `cadence chat --list`")
        }
    }

    var path: String { database ?? SQLiteConversationStore.defaultPath() }

    /// Opens the store, or returns `nil` with `--no-history`. A store that cannot be opened is a
    /// one-line error naming the file and exits with failure: history is never dropped silently.
    /// `answering`: whether the command would answer without the store (`--no-history` is then a way
    /// out, and the error says so); `--list`, `--rename` and `--delete` work only on the store.
    /// A database this user may not write opens read-only: `--list` reads it, answering refuses it.
    func openStore(answering: Bool = true) throws -> SQLiteConversationStore? {
        guard !noHistory else { return nil }
        do {
            let store = try SQLiteConversationStore(path: path, makeID: Self.makeConversationID)
            if answering, store.isReadOnly {
                throw ValidationError("cannot save answers in the conversation database \(path): it is read-only")
            }
            return store
        } catch {
            TerminalOutput.error("\(error)")
            TerminalOutput.error(
                answering
                    ? "(run with --no-history to answer without saving, or --database to use another file)"
                    : "(give --database the file your conversations are in)")
            throw ExitCode.failure
        }
    }

    /// The conversation to continue (`--resume`), or a new one, saved with its first question (so a
    /// process killed before that leaves no empty conversation).
    func openConversation(in store: SQLiteConversationStore) async throws -> Conversation {
        guard let resume else {
            return Conversation(summary: store.newConversation(), answers: [])
        }
        let match = try await Self.find(resume, in: store)
        guard let conversation = try await store.conversation(match.id) else {
            TerminalOutput.error("no saved conversation with id \(match.id) in \(store.path); see `cadence chat --list`")
            throw ExitCode.failure
        }
        return conversation
    }

    /// The one saved conversation whose id is `idOrPrefix` or starts with it; otherwise a one-line
    /// error (none, or which ones it could be) and a failure exit.
    static func find(_ idOrPrefix: String, in store: SQLiteConversationStore) async throws -> ConversationSummary {
        let all = try await store.conversations()
        let exact = all.filter { $0.id == idOrPrefix }
        let matches = exact.isEmpty ? all.filter { $0.id.hasPrefix(idOrPrefix) } : exact
        guard matches.count == 1, let match = matches.first else {
            if matches.isEmpty {
                TerminalOutput.error("no saved conversation with id \(idOrPrefix) in \(store.path); see `cadence chat --list`")
            } else {
                TerminalOutput.error("\(idOrPrefix) matches \(matches.count) conversations: \(matches.map(\.id).joined(separator: ", "))")
            }
            throw ExitCode.failure
        }
        return match
    }

    /// Records one answer of the conversation.
    func recorder(in store: SQLiteConversationStore) -> AnswerRecorder {
        AnswerRecorder(
            store: store, answerID: UUID().uuidString.lowercased(), clock: ContinuousClock(),
            interval: .milliseconds(checkpointIntervalMs))
    }

    /// Short, readable conversation ids: 12 hex digits.
    @Sendable static func makeConversationID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))
    }
}

/// One answer's recording from the command's side: the recorder, and what to say if the store fails.
struct AnswerRecording {
    let recorder: AnswerRecorder
    private var warned = false

    init(_ recorder: AnswerRecorder) { self.recorder = recorder }

    static func begin(_ recorder: AnswerRecorder?, in conversationID: String, query: String) async -> AnswerRecording? {
        guard let recorder else { return nil }
        var recording = AnswerRecording(recorder)
        do {
            try await recorder.begin(in: conversationID, query: query)
        } catch {
            recording.warn(error)
        }
        return recording
    }

    /// Records an update before it is shown, so what the reader saw is already saved.
    mutating func record(_ update: AnswerUpdate) async {
        do {
            try await recorder.record(update)
        } catch {
            warn(error)
        }
    }

    private mutating func warn(_ error: any Error) {
        guard !warned else { return }
        warned = true
        TerminalOutput.error("note: the answer could not be saved: \(error)")
    }
}
