import CadenceCore
import CadenceStore
import CadenceTestFixtures
import CadenceTesting
import Foundation
import GRDB
import Testing

/// The built `cadence` binary running while a test watches its output: started, read as it
/// streams, and killed.
final class RunningBinary: @unchecked Sendable {
    let process = Process()
    private let chunks: AsyncStream<Data>
    private var iterator: AsyncStream<Data>.Iterator
    private(set) var stdout = ""

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = CadenceBinary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(CadenceBinary.isolatedHistory) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        chunks = stream
        iterator = stream.makeAsyncIterator()
        try process.run()
        // A child that hangs is killed, so a read ends and the test fails.
        CadenceBinary.killIfHung(process)
        // A thread of its own does the blocking reads.
        Thread.detachNewThread {
            while true {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                continuation.yield(data)
            }
            continuation.finish()
        }
    }

    /// Reads output until `condition` holds for everything read so far; false if output ended first.
    func read(until condition: (String) -> Bool) async -> Bool {
        while !condition(stdout) {
            guard let data = await iterator.next() else { return false }
            stdout += String(decoding: data, as: UTF8.self)
        }
        return true
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// `kill -9`, then reaps the process.
    func kill9() async {
        kill(process.processIdentifier, SIGKILL)
        await exited()
    }

    /// Returns once the process has exited. The blocking wait runs on a thread of its own, never on
    /// one of the few threads that run Swift tasks: this test process's own server needs those to
    /// answer the child (a Ctrl-C'd `ask` waits for the server to take its cancelling `DELETE`), and
    /// with several such tests at once, blocked task threads would starve it.
    func exited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [process] in
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

@Suite("History: ask and chat keep conversations in the store")
final class HistoryCommandTests {
    let folder: URL
    var database: String { folder.appendingPathComponent("history.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func askSavesChatListsAndResumeFollowsUp() async throws {
        try await withServer { server in
            let first = try await CadenceBinary.run([
                "ask", "--plain", "--url", server.baseURL, "--database", database, "How does Cadence resume an interrupted stream?",
            ])
            #expect(first.status == 0, "\(first.stderr)")

            let listed = try await CadenceBinary.run(["chat", "--list", "--database", database])
            #expect(listed.status == 0, "\(listed.stderr)")
            let lines = listed.stdout.split(separator: "\n")
            #expect(lines.count == 1)
            let line = try #require(lines.first)
            let id = try #require(line.split(separator: " ").first.map(String.init))
            #expect(id.count == 12)
            #expect(line.contains("How does Cadence resume an interrupted stream?"))
            #expect(line.hasSuffix("completed"))
            #expect(line.contains(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/))

            // A follow-up by a unique prefix of the id: answered with the first exchange as context.
            let followUp = try await CadenceBinary.run([
                "ask", "--url", server.baseURL, "--database", database, "--resume", String(id.prefix(6)),
                "And what happens to the text already shown?",
            ])
            #expect(followUp.status == 0, "\(followUp.stderr)")

            let store = try SQLiteConversationStore(path: database)
            let conversation = try #require(try await store.conversation(id))
            #expect(conversation.answers.map(\.query) == [
                "How does Cadence resume an interrupted stream?", "And what happens to the text already shown?",
            ])
            #expect(conversation.answers.map(\.state) == [.completed, .completed])
            #expect(conversation.answers[0].text == first.stdout.components(separatedBy: "\n\nSources").first)
            #expect(!conversation.answers[0].sources.isEmpty && !conversation.answers[0].citations.isEmpty)

            let json = try await CadenceBinary.run(["chat", "--list", "--json", "--database", database])
            let object = try JSONValue(parsing: json.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(object["id"]?.stringValue == id)
            #expect(object["questions"]?.intValue == 2)
            #expect(object["state"]?.stringValue == "completed")

            let unknown = try await CadenceBinary.run([
                "ask", "--url", server.baseURL, "--database", database, "--resume", "nope", "q",
            ])
            #expect(unknown.status != 0 && unknown.stderr.contains("no saved conversation with id nope"))
        }
    }

    @Test func chatKeepsEveryQuestionOfASessionAndResumesIt() async throws {
        try await withServer { server in
            let session = try await CadenceBinary.run(
                ["chat", "--url", server.baseURL, "--database", database],
                stdin: Data("What is BM25?\nAnd how are sources ranked?\n".utf8))
            #expect(session.status == 0, "\(session.stderr)")
            let store = try SQLiteConversationStore(path: database)
            let conversation = try #require(try await store.conversations().first)
            #expect(conversation.answerCount == 2 && conversation.title == "What is BM25?")

            let resumed = try await CadenceBinary.run(
                ["chat", "--url", server.baseURL, "--database", database, "--resume", conversation.id],
                stdin: Data("Then what does the reader see?\n".utf8))
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(try await store.conversation(conversation.id)?.answers.count == 3)
            #expect(try await store.conversations().count == 1)
        }
    }

    @Test func killedMidAnswerTheAnswerComesBackInterrupted() async throws {
        // The server sends ten tokens, then holds the connection open: the answer is mid-stream for
        // as long as the test wants.
        let script = FaultScript.answer(text: "Checkpoints keep a partial answer safe when the process dies.", tokenCharacters: 4)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        let gate = FaultGate()
        let stallAt = script.frames(after: 0).frameEnds[11]
        server.enqueue(.stall(afterBytes: stallAt, gate: gate))
        let child = try RunningBinary([
            "ask", "--url", server.baseURL, "--database", database, "--checkpoint-interval-ms", "0", "--plain",
            "How does Cadence resume an interrupted stream?",
        ])
        // The child saves each update before it shows it: once text is on its stdout, it is in the file.
        #expect(await child.read { $0.count >= 20 })
        let seen = child.stdout
        await child.kill9()
        gate.release()

        let store = try SQLiteConversationStore(path: database)
        #expect(store.recoveredAnswerIDs.count == 1)
        let summary = try #require(try await store.conversations().first)
        let answer = try #require(try await store.conversation(summary.id)?.answers.first)
        #expect(answer.state == .interrupted)
        #expect(answer.text.hasPrefix(seen) && script.text.hasPrefix(answer.text), "everything shown before the kill was saved")
        #expect(answer.text.count < script.text.count)

        let listed = try await CadenceBinary.run(["chat", "--list", "--database", database])
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("interrupted"), "\(listed.stdout)")
    }

    @Test func chatRenamesAndDeletesSavedConversations() async throws {
        try await withServer { server in
            for question in ["What is BM25?", "How does Cadence resume an interrupted stream?"] {
                let asked = try await CadenceBinary.run([
                    "ask", "--plain", "--url", server.baseURL, "--database", database, question,
                ])
                #expect(asked.status == 0, "\(asked.stderr)")
            }
        }
        func listed() async throws -> [[String: JSONValue]] {
            let list = try await CadenceBinary.run(["chat", "--list", "--json", "--database", database])
            #expect(list.status == 0, "\(list.stderr)")
            return try list.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)).objectValue ?? [:] }
        }
        let before = try await listed()
        #expect(before.count == 2)
        let bm25 = try #require(before.first { $0["title"]?.stringValue == "What is BM25?" }?["id"]?.stringValue)
        let resume = try #require(before.first { $0["title"]?.stringValue != "What is BM25?" }?["id"]?.stringValue)

        let renamed = try await CadenceBinary.run([
            "chat", "--database", database, "--rename", String(bm25.prefix(6)), "--title", "  Ranking notes ",
        ])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == "Renamed \(bm25): Ranking notes\n")
        let deleted = try await CadenceBinary.run(["chat", "--database", database, "--delete", resume])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.hasPrefix("Deleted \(resume): “How does Cadence resume"), "\(deleted.stdout)")

        let after = try await listed()
        #expect(after.count == 1)
        #expect(after.first?["id"]?.stringValue == bm25 && after.first?["title"]?.stringValue == "Ranking notes")

        // An id that is not there, and misuse, say what is wrong and change nothing.
        let missing = try await CadenceBinary.run(["chat", "--database", database, "--delete", resume])
        #expect(missing.status != 0 && missing.stderr.contains("no saved conversation with id \(resume)"))
        let untitled = try await CadenceBinary.run(["chat", "--database", database, "--rename", bm25])
        #expect(untitled.status != 0 && untitled.stderr.contains("--rename needs a non-empty --title"))
        let both = try await CadenceBinary.run(["chat", "--database", database, "--list", "--delete", bm25])
        #expect(both.status != 0 && both.stderr.contains("choose one of --list, --delete"))
        // An empty id is a prefix of every id: it deleted the one conversation left.
        for option in ["--delete", "--rename", "--resume"] {
            let empty = try await CadenceBinary.run(
                ["chat", "--database", database, option, ""] + (option == "--rename" ? ["--title", "T"] : ["--plain"])
                    + (option == "--resume" ? ["--url", "http://127.0.0.1:9"] : []))
            #expect(empty.status == 64 && empty.stderr.contains("\(option) needs a conversation id"), "\(empty.stderr)")
        }
        #expect(try await listed().count == 1)
    }

    @Test func aCorruptDatabaseIsNamedAndKept() async throws {
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: database))
        let result = try await CadenceBinary.run(["ask", "--url", "http://127.0.0.1:9", "--database", database, "q"])
        #expect(result.status != 0)
        #expect(result.stderr.contains(database) && result.stderr.contains("not a Cadence conversation database"))
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == garbage)

        #expect(result.stderr.contains("--no-history"))  // ask can answer without saving

        let list = try await CadenceBinary.run(["chat", "--list", "--database", database])
        #expect(list.status != 0 && list.stderr.contains(database))
        #expect(!list.stderr.contains("--no-history"), "--list has nothing to do without the history: \(list.stderr)")
    }

    /// `--database` naming another program's SQLite file used to add our tables to it and go on.
    @Test func aForeignDatabaseIsRefusedNamedAndLeftUntouched() async throws {
        let foreign = folder.appendingPathComponent("inventory.db").path
        try await DatabaseQueue(path: foreign).write { db in
            try db.execute(
                sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item (name) VALUES ('lamp')")
        }
        let schema = { () throws -> [String] in
            try DatabaseQueue(path: foreign).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
        }
        let result = try await CadenceBinary.run(["ask", "--url", "http://127.0.0.1:9", "--database", foreign, "q"])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(foreign) && result.stderr.contains("item"), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let list = try await CadenceBinary.run(["chat", "--list", "--database", foreign])
        #expect(list.status == 1 && list.stderr.contains(foreign), "stderr: \(list.stderr)")
        #expect(try schema() == ["item"], "no Cadence table was added")
    }
}
