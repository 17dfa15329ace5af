import CadenceCore
import CadenceStore
import CadenceTesting
import Foundation
import GRDB
import Testing

@Suite("Answer text: appended in chunks, written once")
struct AnswerTextWritesTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// An 8 MiB answer arriving at 1 MiB/s (the 50 MB answer that wrote 68.7 GB came at 2 MB/s),
    /// checkpointed every 250 ms on a test clock: some 32 checkpoints. Rewriting the whole text at
    /// each one wrote 63 times its size (log and file); appending writes it about twice (the log,
    /// then the file).
    @Test func recordingALongAnswerWritesAtMostThreeTimesItsSize() async throws {
        let path = folder.path("conversations.sqlite")
        let piece = String(repeating: "token ", count: 8 * 1024 / 6) + "\n"
        let pieces = 8 * 1024 * 1024 / piece.utf8.count
        let store = try SQLiteConversationStore(path: path)
        let chat = try await store.createConversation()
        let clock = ManualClock()
        var full = ""
        let written = try await DiskWrites.count(under: folder.url.resolvingSymlinksInPath().path) {
            let store = try SQLiteConversationStore(path: path)
            let recorder = AnswerRecorder(store: store, answerID: "a", clock: clock)
            try await recorder.begin(in: chat.id, query: "Write a long answer")
            for _ in 0..<pieces {
                clock.advance(by: .milliseconds(8))
                try await recorder.record(.textAppended(piece))
                full += piece
            }
            try await recorder.record(.completed(AnswerCompletion(reason: .completed, text: full, sources: [])))
            #expect(await recorder.checkpointCount >= 25, "the answer was saved in many checkpoints")
        }
        let size = full.utf8.count
        #expect(written <= 3 * size, "recording a \(size)-byte answer wrote \(written) bytes (\(written * 10 / size) tenths of it)")
        let answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.state == .completed && answer.text == full)
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect(log == 0, "the write-ahead log is truncated when the answer ends")
    }

    @Test func appendedChunksReadBackAsOneTextAndFinishingWritesOnlyWhatItAdds() async throws {
        let store = try SQLiteConversationStore(path: folder.path("c.sqlite"))
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a", in: chat.id, query: "q")
        try await store.checkpointAnswer("a", appending: "Hello", sources: nil, tier: nil)
        try await store.checkpointAnswer("a", appending: ", world", sources: sampleSources, tier: "deep")
        try await store.checkpointAnswer("a", appending: "", sources: nil, tier: nil)
        var answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.text == "Hello, world" && answer.sources == sampleSources && answer.tier == "deep")

        try await store.finishAnswer("a", with: .cancelled(partialText: "Hello, world, again [1]"))
        answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.text == "Hello, world, again [1]" && answer.citations == ["1"] && answer.sources == sampleSources)
        #expect(try await chunkCount(in: folder.path("c.sqlite")) == 3, "the ending added its tail as one more chunk")

        try await store.checkpointAnswer("a", appending: " late", sources: nil, tier: nil)
        try await store.checkpointAnswer("a", text: "replaced", sources: [], tier: nil)
        #expect(try await store.conversation(chat.id)?.answers.first?.text == "Hello, world, again [1]", "ended: kept")

        try await store.finishAnswer("a", with: .cancelled(partialText: "Another text"))
        #expect(try await store.conversation(chat.id)?.answers.first?.text == "Another text", "a different text replaces")

        _ = try await store.beginAnswer(id: "a", in: chat.id, query: "again")
        #expect(try await store.conversation(chat.id)?.answers.first?.text == "", "a retry starts the text over")
        try await store.checkpointAnswer("a", appending: "one", sources: nil, tier: nil)
        try await store.checkpointAnswer("a", text: "whole", sources: [], tier: nil)
        try await store.checkpointAnswer("a", appending: " more", sources: nil, tier: nil)
        #expect(try await store.conversation(chat.id)?.answers.first?.text == "whole more")

        try await store.deleteConversation(chat.id)
        #expect(try await chunkCount(in: folder.path("c.sqlite")) == 0, "deleting a conversation deletes its text")
    }

    /// A history written before chunks (schema v1, text in the answer row) keeps its texts.
    @Test func anOlderHistoryIsUpgradedWithItsTexts() async throws {
        let path = folder.path("old.sqlite")
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: Self.version1Schema)
            try db.execute(
                sql: """
                    INSERT INTO grdb_migrations (identifier) VALUES ('v1: conversations and answers');
                    INSERT INTO conversation VALUES ('c', 'Old', 0, 1, 1);
                    INSERT INTO answer (id, conversation_id, position, query, text, state, created_at, updated_at)
                    VALUES ('a0', 'c', 0, 'q0', 'An old answer [1]', 'completed', 1, 1),
                           ('a1', 'c', 1, 'q1', '', 'failed', 1, 1);
                    """)
        }
        try old.close()

        let store = try SQLiteConversationStore(path: path)
        #expect(try await store.conversation("c")?.answers.map(\.text) == ["An old answer [1]", ""])
        _ = try await store.beginAnswer(id: "a2", in: "c", query: "q2")
        try await store.checkpointAnswer("a2", appending: "New", sources: nil, tier: nil)
        #expect(try await store.conversation("c")?.answers.map(\.text) == ["An old answer [1]", "", "New"])
    }

    private func chunkCount(in path: String) async throws -> Int {
        try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM answer_chunk") ?? -1 }
    }

    /// The schema Cadence wrote before answer text moved into chunks, as it was.
    static let version1Schema = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        CREATE TABLE conversation (
          id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, has_placeholder_title INTEGER NOT NULL DEFAULT 0,
          created_at REAL NOT NULL, updated_at REAL NOT NULL
        );
        CREATE TABLE answer (
          id TEXT PRIMARY KEY NOT NULL,
          conversation_id TEXT NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, query TEXT NOT NULL, text TEXT NOT NULL DEFAULT '',
          sources TEXT NOT NULL DEFAULT '[]', citations TEXT NOT NULL DEFAULT '[]',
          follow_ups TEXT NOT NULL DEFAULT '[]', metadata TEXT NOT NULL DEFAULT '{}', tier TEXT,
          state TEXT NOT NULL, failure_message TEXT, writer_pid INTEGER,
          created_at REAL NOT NULL, updated_at REAL NOT NULL,
          UNIQUE (conversation_id, position)
        );
        CREATE INDEX answer_by_state ON answer (state);
        """
}
