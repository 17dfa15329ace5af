import Foundation
import GRDB

/// The passages of a corpus in a SQLite FTS5 index, through GRDB: a file that later starts reuse,
/// or memory (the bundled corpus, and documents given in code).
///
/// Passages are indexed with FTS5's `porter` stemmer over `unicode61 remove_diacritics 2`, so
/// "streams", "streaming" and "stréam" all match "stream", and ranked with `bm25()`. Each
/// document row keeps the size and modification time its file had when it was read; an update
/// re-reads only the files whose size or time changed, adds new ones and drops deleted ones, in
/// one transaction, so an interrupted update leaves the index as it was.
///
/// ```swift
/// let index = try CorpusIndex(path: "/home/me/.local/share/cadence/corpus-notes.sqlite")
/// let report = try index.update(from: URL(fileURLWithPath: "/home/me/notes"))
/// let corpus = try Corpus(index: index)
/// ```
public final class CorpusIndex: Sendable {
    /// The database file, or nil for an index in memory.
    public let path: String?
    let database: any DatabaseWriter
    let frequencies = DocumentFrequencyCache()

    /// Opens (creating if needed) the index file at `path`, and its folder.
    ///
    /// - Throws: ``CorpusError`` with code `.index` when the file cannot be created or written,
    ///   or is not a Cadence corpus index.
    public init(path: String) throws(CorpusError) {
        self.path = path
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let pool = try DatabasePool(path: path, configuration: Self.configuration)
            try Self.migrator.migrate(pool)
            database = pool
        } catch {
            throw CorpusError(
                code: .index, path: path,
                message: "the index cannot be opened for writing (\(error)); pass --index with a writable file path")
        }
    }

    /// An empty index in memory.
    public init() throws(CorpusError) {
        path = nil
        do {
            let queue = try DatabaseQueue(configuration: Self.configuration)
            try Self.migrator.migrate(queue)
            database = queue
        } catch {
            throw CorpusError(code: .index, path: ":memory:", message: "an index in memory cannot be made (\(error))")
        }
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.label = "CorpusIndex"
        return configuration
    }

    /// The FTS5 tokenizer: Porter stemming over Unicode words, diacritics folded.
    static let tokenizer = "porter unicode61 remove_diacritics 2"

    /// `document` holds one row per file, with the size and time it was read at; `passage` one row
    /// per passage (its blocks' kinds, heading and anchor); `passage_text` the indexed text, with
    /// the same rowid as its `passage` row.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE corpus_setting (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE document (
                        id INTEGER PRIMARY KEY, ordinal INTEGER NOT NULL, subpath TEXT NOT NULL UNIQUE,
                        collection TEXT NOT NULL, path TEXT NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL,
                        size INTEGER NOT NULL, modified REAL NOT NULL, text TEXT NOT NULL);
                    CREATE TABLE passage (
                        id INTEGER PRIMARY KEY, document INTEGER NOT NULL REFERENCES document(id),
                        position INTEGER NOT NULL, heading TEXT, anchor TEXT, kinds TEXT NOT NULL);
                    CREATE INDEX passage_by_document ON passage(document, position);
                    CREATE VIRTUAL TABLE passage_text USING fts5(
                        title, heading, body, collection UNINDEXED, tokenize = '\(tokenizer)');
                    """)
        }
        // The passages of v1 were read by a line-based reader; CadenceMarkdown's parser reads them
        // now. Emptying the tables makes the next update read every file again.
        migrator.registerMigration("v2: passages read by the markdown parser") { db in
            try db.execute(sql: "DELETE FROM passage_text; DELETE FROM passage; DELETE FROM document;")
        }
        return migrator
    }

    /// How many documents and passages the index holds.
    public func counts() throws(CorpusError) -> (documents: Int, passages: Int) {
        try read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM document") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM passage") ?? 0
            )
        }
    }

    /// Runs `body` in a read transaction, turning a database error into a ``CorpusError``.
    func read<T>(_ body: (Database) throws -> T) throws(CorpusError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw CorpusError(code: .index, path: path ?? ":memory:", message: "the index cannot be read (\(error))")
        }
    }

    /// Runs `body` in one write transaction, turning a database error into a ``CorpusError``.
    func write<T>(_ body: (Database) throws -> T) throws(CorpusError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw CorpusError(code: .index, path: path ?? ":memory:", message: "the index cannot be written (\(error))")
        }
    }
}

/// How many passages contain a word, remembered per index: the engines ask for the same few words
/// many times while composing one answer. Cleared whenever the index changes.
final class DocumentFrequencyCache: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func value(for word: String, compute: () -> Int) -> Int {
        if let known = lock.withLock({ counts[word] }) { return known }
        let count = compute()
        lock.withLock { counts[word] = count }
        return count
    }

    func removeAll() {
        lock.withLock { counts.removeAll() }
    }
}
