public import CadenceCore
public import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The conversation store in SQLite, through GRDB: a file in WAL mode, or memory.
///
/// - **Opening** creates the file and its folder if needed and runs the schema migrations. A file
///   that is not a SQLite database, is damaged, cannot be read, comes from a newer Cadence, or is
///   another program's database (tables, none of them Cadence's) gives a ``ConversationStoreError``
///   naming the path; the file is never replaced, and a foreign one is not even opened for writing.
/// - **Crash recovery.** Each streaming answer records the process writing it. Opening the store
///   marks the answers whose writer is gone as ``AnswerState/interrupted``, keeping their last
///   checkpoint; ``recoveredAnswerIDs`` lists them. Answers another live process is streaming are
///   left alone, so two `cadence chat` windows can share one history.
/// - **Durability.** Writes use WAL with `synchronous = NORMAL`: a committed checkpoint survives the
///   process being killed (`kill -9`); a power cut may lose the last transactions.
/// - **Linear writes.** A checkpoint appends the text that arrived since the one before; the text is
///   never rewritten, so a long answer costs its length in writes, not its length squared. When an
///   answer ends, the write-ahead log is folded into the file and truncated.
/// - **Read-only files.** A file this process may not write (or in a folder it may not write) is
///   opened read-only (``isReadOnly``), leaving no `-wal` or `-shm` file behind; writes then fail with
///   ``ConversationStoreError/unreadable(path:detail:)``.
///
/// ```swift
/// let store = try SQLiteConversationStore(path: SQLiteConversationStore.defaultPath())
/// let previews = try SQLiteConversationStore.inMemory()
/// for id in store.recoveredAnswerIDs { print("recovered \(id)") }
/// ```
public final class SQLiteConversationStore: ConversationStore {
    /// The database file, or `":memory:"`.
    public let path: String
    /// The answers found streaming from a process that no longer runs, now marked interrupted.
    public let recoveredAnswerIDs: [String]
    /// Whether the file was opened read-only, because this process may not write it or its folder.
    public let isReadOnly: Bool

    private let writer: any DatabaseWriter
    private let processID: Int64
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> String
    private let unsaved = UnsavedConversations()

    /// Opens (or creates) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the database file; its folder is created if needed.
    ///   - now: the wall clock for creation and update times.
    ///   - makeID: a new conversation's identifier.
    public convenience init(
        path: String, now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws {
        let (writer, isReadOnly) = try Self.openFile(at: path)
        try self.init(writer: writer, path: path, isReadOnly: isReadOnly, now: now, makeID: makeID)
    }

    /// A store in memory, empty, for previews and tests.
    public static func inMemory(
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws -> SQLiteConversationStore {
        let queue = try DatabaseQueue(configuration: Self.configuration)
        return try SQLiteConversationStore(writer: queue, path: ":memory:", isReadOnly: false, now: now, makeID: makeID)
    }

    private init(
        writer: any DatabaseWriter, path: String, isReadOnly: Bool, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> String
    ) throws {
        self.writer = writer
        self.path = path
        self.isReadOnly = isReadOnly
        self.now = now
        self.makeID = makeID
        processID = Int64(getpid())
        let migrator = Self.migrator
        do {
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw ConversationStoreError.newerSchema(path: path)
            }
            if !isReadOnly {
                try migrator.migrate(writer)
            } else if try !writer.read({ try migrator.hasCompletedMigrations($0) }) {
                throw ConversationStoreError.unreadable(
                    path: path, detail: "an older Cadence wrote it; open it once with write access to upgrade it")
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, operation: "opening")
        }
        recoveredAnswerIDs = isReadOnly ? [] : try Self.run(path, "recovering interrupted answers") {
            try writer.write { db in try Self.recoverInterruptedAnswers(db) }
        }
    }

    // MARK: Location

    /// The default database file: `$CADENCE_DATA_HOME/conversations.sqlite` when that is set;
    /// otherwise under the user's data directory: `~/Library/Application Support/Cadence` on Apple
    /// platforms, `$XDG_DATA_HOME/cadence` (default `~/.local/share/cadence`) elsewhere.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let fileName = "conversations.sqlite"
        if let home = environment["CADENCE_DATA_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(fileName).path
        }
        #if canImport(Darwin)
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return base.appendingPathComponent("Cadence").appendingPathComponent(fileName).path
        #else
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return base.appendingPathComponent("cadence").appendingPathComponent(fileName).path
        #endif
    }

    // MARK: Conversations

    public func createConversation(id: String? = nil, title: String? = nil) async throws -> ConversationSummary {
        let trimmed = title.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let date = now()
        let summary = ConversationSummary(
            id: id ?? makeID(), title: trimmed.isEmpty ? ConversationSummary.placeholderTitle : trimmed,
            createdAt: date, updatedAt: date, hasPlaceholderTitle: trimmed.isEmpty)
        try await write("creating a conversation") { db in try Self.insert(summary, db) }
        return summary
    }

    /// A new conversation, saved together with its first question by the first
    /// ``beginAnswer(id:in:query:)`` in it, in one transaction: a process killed before then
    /// leaves nothing behind, never a conversation without a question. Until then the store does
    /// not list it.
    public func newConversation() -> ConversationSummary {
        let date = now()
        let summary = ConversationSummary(
            id: makeID(), title: ConversationSummary.placeholderTitle, createdAt: date, updatedAt: date,
            hasPlaceholderTitle: true)
        unsaved.add(summary)
        return summary
    }

    public func conversations() async throws -> [ConversationSummary] {
        try await read("listing conversations") { db in
            try Row.fetchAll(db, sql: "\(Self.summarySelect) ORDER BY c.updated_at DESC, c.rowid DESC")
                .map(Self.summary)
        }
    }

    public func conversation(_ id: String) async throws -> Conversation? {
        try await read("reading conversation \(id)") { db in
            guard let row = try Row.fetchOne(db, sql: "\(Self.summarySelect) WHERE c.id = ?", arguments: [id]) else {
                return nil
            }
            let texts = try AnswerTextChunks.texts(inConversation: id, db)
            let answers = try Row.fetchAll(
                db, sql: "SELECT * FROM answer WHERE conversation_id = ? ORDER BY position", arguments: [id]
            ).map { try Self.answer($0, text: texts[$0["id"]] ?? "") }
            return Conversation(summary: Self.summary(row), answers: answers)
        }
    }

    public func renameConversation(_ id: String, to title: String) async throws {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return }
        let date = now().timeIntervalSince1970
        let changed = try await write("renaming conversation \(id)") { db in
            try db.execute(
                sql: "UPDATE conversation SET title = ?, has_placeholder_title = 0, updated_at = ? WHERE id = ?",
                arguments: [title, date, id])
            return db.changesCount
        }
        if changed == 0 { throw ConversationStoreError.notFound(id) }
    }

    public func deleteConversation(_ id: String) async throws {
        let changed = try await write("deleting conversation \(id)") { db in
            try db.execute(sql: "DELETE FROM conversation WHERE id = ?", arguments: [id])
            return db.changesCount
        }
        if changed == 0 { throw ConversationStoreError.notFound(id) }
    }

    // MARK: Answers

    public func beginAnswer(id: String, in conversationID: String, query: String) async throws -> StoredAnswer {
        let date = now()
        let stamp = date.timeIntervalSince1970
        let pid = processID
        let unsaved = unsaved[conversationID]
        let answer = try await write("recording a question in \(conversationID)") { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM conversation WHERE id = ?", arguments: [conversationID]) == nil {
                guard let unsaved else { throw ConversationStoreError.notFound(conversationID) }
                try Self.insert(unsaved, db)
            }
            let position: Int
            if let existing = try Int.fetchOne(
                db, sql: "SELECT position FROM answer WHERE id = ? AND conversation_id = ?",
                arguments: [id, conversationID])
            {
                position = existing
                try db.execute(
                    sql: """
                        UPDATE answer SET query = ?, sources = '[]', citations = '[]', follow_ups = '[]',
                          metadata = '{}', tier = NULL, state = 'streaming', failure_message = NULL, writer_pid = ?,
                          reasoning = '', refusal = '', tool_calls = '[]',
                          created_at = ?, updated_at = ?
                        WHERE id = ?
                        """,
                    arguments: [query, pid, stamp, stamp, id])
                try AnswerTextChunks.replace(id, with: "", db)
            } else {
                position =
                    try Int.fetchOne(
                        db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM answer WHERE conversation_id = ?",
                        arguments: [conversationID]) ?? 0
                try db.execute(
                    sql: """
                        INSERT INTO answer (id, conversation_id, position, query, state, writer_pid, created_at, updated_at)
                        VALUES (?, ?, ?, ?, 'streaming', ?, ?, ?)
                        """,
                    arguments: [id, conversationID, position, query, pid, stamp, stamp])
            }
            try db.execute(
                sql: """
                    UPDATE conversation SET updated_at = ?,
                      title = CASE WHEN has_placeholder_title = 1 AND ? <> '' THEN ? ELSE title END,
                      has_placeholder_title = CASE WHEN ? <> '' THEN 0 ELSE has_placeholder_title END
                    WHERE id = ?
                    """,
                arguments: [
                    stamp, ConversationSummary.title(fromQuestion: query), ConversationSummary.title(fromQuestion: query),
                    ConversationSummary.title(fromQuestion: query), conversationID,
                ])
            return StoredAnswer(
                id: id, conversationID: conversationID, position: position, query: query, createdAt: date,
                updatedAt: date)
        }
        if unsaved != nil { self.unsaved.remove(conversationID) }
        return answer
    }

    public func checkpointAnswer(_ id: String, text: String, sources: [Source], tier: String?) async throws {
        let stamp = now().timeIntervalSince1970
        let sourcesJSON = try Self.json(sources)
        try await write("checkpointing answer \(id)") { db in
            try db.execute(
                sql: """
                    UPDATE answer SET sources = ?, tier = COALESCE(?, tier), updated_at = ?
                    WHERE id = ? AND state = 'streaming'
                    """,
                arguments: [sourcesJSON, tier, stamp, id])
            if db.changesCount > 0 { try AnswerTextChunks.replace(id, with: text, db) }
        }
    }

    public func checkpointAnswer(_ id: String, appending chunk: String, sources: [Source]?, tier: String?) async throws {
        let stamp = now().timeIntervalSince1970
        let sourcesJSON = try sources.map(Self.json)
        try await write("checkpointing answer \(id)") { db in
            guard try AnswerTextChunks.append(chunk, to: id, db) || sourcesJSON != nil || tier != nil else { return }
            try db.execute(
                sql: """
                    UPDATE answer SET sources = COALESCE(?, sources), tier = COALESCE(?, tier), updated_at = ?
                    WHERE id = ? AND state = 'streaming'
                    """,
                arguments: [sourcesJSON, tier, stamp, id])
        }
    }

    public func finishAnswer(_ id: String, with ending: AnswerEnding, reasoningTime: Duration?) async throws {
        let stamp = now().timeIntervalSince1970
        var sources: [Source] = []
        var followUps: [String] = []
        var metadata: [String: JSONValue] = [:]
        var failure: String?
        switch ending {
        case .completed(let completion):
            (sources, followUps, metadata) = (completion.sources, completion.followUps, completion.metadata)
        case .failed(let answerFailure):
            (sources, failure) = (answerFailure.sources, answerFailure.message)
        case .cancelled, .interrupted:
            break
        }
        let text = ending.text
        let failureMessage = failure
        let citations = citedSourceIDs(in: text)
        let model = ending.modelOutput
        let columns = (
            sources: try Self.json(sources), citations: try Self.json(citations), followUps: try Self.json(followUps),
            metadata: try Self.json(metadata), toolCalls: try Self.json(model.toolCalls)
        )
        let changed = try await write("saving answer \(id)") { db in
            // Sources from the terminal update replace the checkpointed ones only when it has any.
            try db.execute(
                sql: """
                    UPDATE answer SET sources = CASE WHEN ? = '[]' THEN sources ELSE ? END, citations = ?,
                      follow_ups = ?, metadata = ?, state = ?, failure_message = ?, writer_pid = NULL, updated_at = ?,
                      reasoning = ?, refusal = ?, tool_calls = ?, reasoning_ms = ?
                    WHERE id = ?
                    """,
                arguments: [
                    columns.sources, columns.sources, columns.citations, columns.followUps, columns.metadata,
                    AnswerState(ending).rawValue, failureMessage, stamp, model.reasoning, model.refusal, columns.toolCalls,
                    reasoningTime.map { Int(($0 / .milliseconds(1)).rounded()) }, id,
                ])
            let changed = db.changesCount
            guard changed > 0 else { return changed }
            try AnswerTextChunks.finish(id, with: text, db)
            try db.execute(
                sql: "UPDATE conversation SET updated_at = ? WHERE id = (SELECT conversation_id FROM answer WHERE id = ?)",
                arguments: [stamp, id])
            return changed
        }
        if changed == 0 { throw ConversationStoreError.notFound(id) }
        await truncateLog()
    }

    /// Folds the write-ahead log into the database file and empties it, so a finished answer leaves
    /// no log as large as its text behind. Readers of another process can keep it from completing;
    /// the next answer's end tries again.
    private func truncateLog() async {
        guard writer is DatabasePool else { return }
        _ = try? await writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// Marks streaming answers whose writer process is gone as interrupted, again (opening the store
    /// already did). Returns their ids.
    @discardableResult
    public func recoverInterruptedAnswers() async throws -> [String] {
        try await write("recovering interrupted answers") { db in try Self.recoverInterruptedAnswers(db) }
    }

    // MARK: Rows

    private static func insert(_ summary: ConversationSummary, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO conversation (id, title, has_placeholder_title, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [
                summary.id, summary.title, summary.hasPlaceholderTitle, summary.createdAt.timeIntervalSince1970,
                summary.updatedAt.timeIntervalSince1970,
            ])
    }

    private static let summarySelect = """
        SELECT c.*,
          (SELECT state FROM answer a WHERE a.conversation_id = c.id ORDER BY a.position DESC LIMIT 1) AS last_state,
          (SELECT COUNT(*) FROM answer a WHERE a.conversation_id = c.id) AS answer_count
        FROM conversation c
        """

    private static func summary(_ row: Row) -> ConversationSummary {
        ConversationSummary(
            id: row["id"], title: row["title"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]), hasPlaceholderTitle: row["has_placeholder_title"],
            lastAnswerState: (row["last_state"] as String?).flatMap(AnswerState.init(rawValue:)),
            answerCount: row["answer_count"])
    }

    private static func answer(_ row: Row, text: String) throws -> StoredAnswer {
        let stateName: String = row["state"]
        guard let state = AnswerState(rawValue: stateName) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "answer \(row["id"] as String) has unknown state '\(stateName)'")
        }
        return StoredAnswer(
            id: row["id"], conversationID: row["conversation_id"], position: row["position"], query: row["query"],
            text: text, sources: try decode(row["sources"]), citations: try decode(row["citations"]),
            followUps: try decode(row["follow_ups"]), metadata: try decode(row["metadata"]), tier: row["tier"],
            state: state, failureMessage: row["failure_message"], reasoning: row["reasoning"], refusal: row["refusal"],
            toolCalls: try decode(row["tool_calls"]),
            reasoningTime: (row["reasoning_ms"] as Int?).map { .milliseconds($0) }, createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
    }

    private static func recoverInterruptedAnswers(_ db: Database) throws -> [String] {
        let streaming = try Row.fetchAll(db, sql: "SELECT id, writer_pid FROM answer WHERE state = 'streaming'")
        var recovered: [String] = []
        for row in streaming {
            let pid: Int64? = row["writer_pid"]
            if let pid, isRunning(pid) { continue }
            recovered.append(row["id"])
        }
        for id in recovered {
            try db.execute(
                sql: "UPDATE answer SET state = 'interrupted', writer_pid = NULL WHERE id = ?", arguments: [id])
        }
        return recovered
    }

    /// Whether a process with this id exists (a permission error means it does).
    private static func isRunning(_ pid: Int64) -> Bool {
        guard pid > 0, pid <= Int64(Int32.max) else { return false }
        return kill(pid_t(pid), 0) == 0 || errno == EPERM
    }

    // MARK: Plumbing

    private static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    private func write<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write(body)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, operation: operation)
        }
    }

    private func read<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(body)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, operation: operation)
        } catch is DecodingError {
            throw ConversationStoreError.corrupt(path: path, detail: "\(operation): a stored JSON column does not decode")
        }
    }

    private static func run<T>(_ path: String, _ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw storeError(error, path: path, operation: operation)
        }
    }

    static func storeError(_ error: DatabaseError, path: String, operation: String) -> ConversationStoreError {
        let detail = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, detail: detail)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH, .SQLITE_IOERR:
            return .unreadable(path: path, detail: detail)
        default: return .database(path: path, operation: operation, detail: detail)
        }
    }
}

/// The conversations ``SQLiteConversationStore/newConversation()`` handed out that no question has
/// saved yet.
private final class UnsavedConversations: @unchecked Sendable {
    private let lock = NSLock()
    private var byID: [String: ConversationSummary] = [:]

    func add(_ summary: ConversationSummary) {
        lock.withLock { byID[summary.id] = summary }
    }

    subscript(id: String) -> ConversationSummary? {
        lock.withLock { byID[id] }
    }

    func remove(_ id: String) {
        _ = lock.withLock { byID.removeValue(forKey: id) }
    }
}
