import CadenceCore
import CadenceStore
import Foundation
import GRDB
import Testing

@Suite("SQLite conversation store on real files")
struct SQLiteConversationStoreTests {
    let folder: TemporaryFolder
    let dates = SteppingDates()

    init() throws { folder = try TemporaryFolder() }

    func open(_ name: String = "conversations.sqlite") throws -> SQLiteConversationStore {
        let dates = dates
        return try SQLiteConversationStore(path: folder.path(name), now: { dates.next() })
    }

    @Test func conversationsSurviveReopeningTheFile() async throws {
        let store = try open()
        let first = try await store.createConversation()
        let second = try await store.createConversation(id: "chat-2", title: "  Notes  ")
        #expect(first.title == ConversationSummary.placeholderTitle && first.hasPlaceholderTitle)
        #expect(second.title == "Notes" && !second.hasPlaceholderTitle)

        let answer = try await store.beginAnswer(id: "a1", in: first.id, query: "  What is\nSSE?  ")
        #expect(answer.position == 0 && answer.state == .streaming)
        try await store.finishAnswer(
            "a1",
            with: .completed(
                AnswerCompletion(
                    reason: .completed, text: "SSE is a stream [1][2]. See [2] and [link](x) [3]: no.",
                    sources: sampleSources, followUps: ["How does resume work?"], metadata: ["rounds": 2])))

        let reopened = try open()
        let list = try await reopened.conversations()
        #expect(list.map(\.id) == [first.id, "chat-2"], "the answered conversation was updated last")
        #expect(list[0].title == "What is SSE?" && !list[0].hasPlaceholderTitle)
        #expect(list[0].lastAnswerState == .completed && list[0].answerCount == 1)
        #expect(list[1].lastAnswerState == nil && list[1].answerCount == 0)

        let conversation = try #require(try await reopened.conversation(first.id))
        let stored = try #require(conversation.answers.first)
        #expect(stored.text == "SSE is a stream [1][2]. See [2] and [link](x) [3]: no.")
        #expect(stored.sources == sampleSources)
        #expect(stored.citations == ["1", "2"])
        #expect(stored.followUps == ["How does resume work?"])
        #expect(stored.metadata == ["rounds": 2])
        #expect(stored.state == .completed)
        #expect(conversation.history.map(\.role) == ["user", "assistant"])
    }

    @Test func aNewConversationIsSavedWithItsFirstQuestionNeverWithout() async throws {
        let store = try open()
        let unasked = store.newConversation()
        let asked = store.newConversation()
        #expect(unasked.id != asked.id && asked.hasPlaceholderTitle)
        #expect(try await store.conversations().isEmpty, "nothing is saved before a question")

        _ = try await store.beginAnswer(id: "a1", in: asked.id, query: "What is SSE?")
        _ = try await store.beginAnswer(id: "a2", in: asked.id, query: "And resume?")
        // Another process (a reopened file) finds the asked one with its questions; the unasked one
        // is gone with the process that never asked in it.
        let reopened = try open()
        let list = try await reopened.conversations()
        #expect(list.map(\.id) == [asked.id] && list.first?.title == "What is SSE?")
        #expect(try await reopened.conversation(asked.id)?.answers.map(\.query) == ["What is SSE?", "And resume?"])
        await #expect(throws: ConversationStoreError.notFound(unasked.id)) {
            _ = try await reopened.beginAnswer(id: "a3", in: unasked.id, query: "q")
        }

        // Deleted once saved, it stays deleted: a later question does not bring it back.
        try await reopened.deleteConversation(asked.id)
        await #expect(throws: ConversationStoreError.notFound(asked.id)) {
            _ = try await store.beginAnswer(id: "a4", in: asked.id, query: "q")
        }
    }

    @Test func theFileIsInWALMode() async throws {
        let store = try open()
        _ = try await store.createConversation()
        let check = try DatabaseQueue(path: folder.path("conversations.sqlite"))
        let mode = try await check.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test(arguments: [
        (AnswerEnding.completed(AnswerCompletion(reason: .timedOut, text: "Half")), AnswerState.timedOut, nil as String?),
        (.failed(AnswerFailure(.connection, message: "HTTP 503", partialText: "Hal")), .failed, "HTTP 503"),
        (.cancelled(partialText: "Ha"), .cancelled, nil),
        (.completed(AnswerCompletion(reason: .completed, text: "Hello")), .completed, nil),
        (.interrupted(partialText: "H"), .interrupted, nil),
    ])
    func everyEndingIsStoredWithItsText(ending: AnswerEnding, state: AnswerState, message: String?) async throws {
        let store = try open()
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a", in: chat.id, query: "q")
        try await store.checkpointAnswer("a", text: "H", sources: sampleSources, tier: "deep")
        try await store.finishAnswer("a", with: ending)
        try await store.checkpointAnswer("a", text: "late checkpoint", sources: [], tier: nil)

        let answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.state == state)
        #expect(answer.text == ending.text, "a checkpoint after the end changes nothing")
        #expect(answer.failureMessage == message)
        #expect(answer.sources == sampleSources, "checkpointed sources stay when the ending has none")
        #expect(answer.tier == "deep")
        #expect(try await store.conversations().first?.lastAnswerState == state)
        #expect(AnswerState(answer.ending) == state, "the ending read back is the ending stored")
        #expect(answer.ending.text == ending.text)
    }

    @Test func followUpsGoAfterEarlierQuestionsAndARetryKeepsItsPlace() async throws {
        let store = try open()
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "first")
        try await store.finishAnswer("a1", with: .cancelled(partialText: "one"))
        let second = try await store.beginAnswer(id: "a2", in: chat.id, query: "second")
        #expect(second.position == 1)
        try await store.finishAnswer("a2", with: .failed(AnswerFailure(.connection, message: "boom", partialText: "")))

        let retried = try await store.beginAnswer(id: "a1", in: chat.id, query: "first")
        #expect(retried.position == 0)
        let answers = try #require(try await store.conversation(chat.id)).answers
        #expect(answers.map(\.id) == ["a1", "a2"])
        #expect(answers[0].state == .streaming && answers[0].text.isEmpty)
        #expect(try await store.conversations().first?.title == "first", "the first question stays the title")
    }

    @Test func renameAndDelete() async throws {
        let store = try open()
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "q")
        try await store.renameConversation(chat.id, to: "Renamed")
        _ = try await store.beginAnswer(id: "a2", in: chat.id, query: "later question")
        #expect(try await store.conversation(chat.id)?.title == "Renamed", "a renamed title is kept")

        try await store.deleteConversation(chat.id)
        #expect(try await store.conversation(chat.id) == nil)
        #expect(try await store.conversations().isEmpty)
        let db = try DatabaseQueue(path: folder.path("conversations.sqlite"))
        #expect(try await db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM answer") } == 0, "answers go too")

        await #expect(throws: ConversationStoreError.notFound("missing")) {
            try await store.renameConversation("missing", to: "x")
        }
        await #expect(throws: ConversationStoreError.notFound("missing")) {
            try await store.deleteConversation("missing")
        }
        await #expect(throws: ConversationStoreError.notFound("missing")) {
            _ = try await store.beginAnswer(id: "a", in: "missing", query: "q")
        }
    }

    @Test func answersLeftStreamingByADeadProcessComeBackInterrupted() async throws {
        let path = folder.path("conversations.sqlite")
        let store = try open()
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "crashed", in: chat.id, query: "q1")
        try await store.checkpointAnswer("crashed", text: "Partial text", sources: sampleSources, tier: nil)
        _ = try await store.beginAnswer(id: "live", in: chat.id, query: "q2")
        let dead = try exitedProcessID()
        let db = try DatabaseQueue(path: path)
        try await db.write { try $0.execute(sql: "UPDATE answer SET writer_pid = ? WHERE id = 'crashed'", arguments: [dead]) }

        let reopened = try open()
        #expect(reopened.recoveredAnswerIDs == ["crashed"], "the answer this process still streams is left alone")
        let answers = try #require(try await reopened.conversation(chat.id)).answers
        #expect(answers[0].state == .interrupted && answers[0].text == "Partial text")
        #expect(answers[0].sources == sampleSources)
        #expect(answers[1].state == .streaming)
    }

    @Test func aFileThatIsNotADatabaseIsNamedAndLeftUntouched() throws {
        let path = folder.path("conversations.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteConversationStore(path: path)
        } throws: { error in
            guard case .corrupt(let named, _) = error as? ConversationStoreError else { return false }
            return named == path && "\(error)".contains(path) && "\(error)".contains("left untouched")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    /// The tables of the file at `path`, by name, read without GRDB's migrator.
    static func tables(at path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    /// Another program's SQLite file passed by mistake (`--database ~/app.db`) used to get our
    /// tables added to it. Now it is refused, naming the file, and its schema is unchanged.
    @Test(arguments: [
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')",
        // Another GRDB app: a migrations table, but none of ours.
        """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations VALUES ('createPlayers'); CREATE TABLE player (id INTEGER PRIMARY KEY)
        """,
    ])
    func aForeignDatabaseIsRefusedAndLeftUntouched(schema: String) async throws {
        let path = folder.path("someone-elses.sqlite")
        try await DatabaseQueue(path: path).write { try $0.execute(sql: schema) }
        let before = try Self.tables(at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteConversationStore(path: path)
        } throws: { error in
            guard case .foreign(let named, let tables) = error as? ConversationStoreError else { return false }
            let text = "\(error)"
            return named == path && tables == before && text.contains(path) && text.contains("left untouched")
                && text.contains(before.last!)
        }
        #expect(try Self.tables(at: path) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "not a byte changed (no WAL switch either)")
    }

    @Test func anEmptyFileOrACadenceFileOpensAsBefore() async throws {
        let empty = folder.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let store = try SQLiteConversationStore(path: empty)
        _ = try await store.createConversation(title: "kept")
        // Reopened: our own schema is recognised, and what it holds is still there.
        let reopened = try SQLiteConversationStore(path: empty)
        #expect(try await reopened.conversations().map(\.title) == ["kept"])
        #expect(try Self.tables(at: empty).contains("conversation"))
    }

    @Test func aDirectoryInTheWayIsAClearError() throws {
        let path = folder.path("taken")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: ConversationStoreError.unreadable(path: path, detail: "it is a directory")) {
            _ = try SQLiteConversationStore(path: path)
        }
        let blocked = folder.path("file-not-folder")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocked))
        #expect {
            _ = try SQLiteConversationStore(path: blocked + "/conversations.sqlite")
        } throws: { error in
            guard case .unreadable(let named, _) = error as? ConversationStoreError else { return false }
            return named == blocked + "/conversations.sqlite"
        }
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let path = folder.path("conversations.sqlite")
        _ = try open()
        let db = try DatabaseQueue(path: path)
        try await db.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        #expect(throws: ConversationStoreError.newerSchema(path: path)) { _ = try SQLiteConversationStore(path: path) }
    }

    @Test func theDefaultPathFollowsTheEnvironment() {
        #expect(
            SQLiteConversationStore.defaultPath(environment: ["CADENCE_DATA_HOME": "/tmp/c", "HOME": "/home/me"])
                == "/tmp/c/conversations.sqlite")
        #if !canImport(Darwin)
        #expect(
            SQLiteConversationStore.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
                == "/data/cadence/conversations.sqlite")
        #expect(
            SQLiteConversationStore.defaultPath(environment: ["HOME": "/home/me"])
                == "/home/me/.local/share/cadence/conversations.sqlite")
        #endif
    }

    @Test func inMemoryStoresAreSeparate() async throws {
        let one = try SQLiteConversationStore.inMemory()
        let two = try SQLiteConversationStore.inMemory()
        _ = try await one.createConversation()
        #expect(try await one.conversations().count == 1)
        #expect(try await two.conversations().isEmpty)
    }
}
