import Foundation
import GRDB

/// Opening the database file: its configuration, schema migrations, and the checks made before it
/// is opened for writing.
extension SQLiteConversationStore {
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.label = "Cadence.conversations"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly, try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        return configuration
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: conversations and answers") { db in
            try db.execute(
                sql: """
                    CREATE TABLE conversation (
                      id TEXT PRIMARY KEY NOT NULL,
                      title TEXT NOT NULL,
                      has_placeholder_title INTEGER NOT NULL DEFAULT 0,
                      created_at REAL NOT NULL,
                      updated_at REAL NOT NULL
                    );
                    CREATE TABLE answer (
                      id TEXT PRIMARY KEY NOT NULL,
                      conversation_id TEXT NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                      position INTEGER NOT NULL,
                      query TEXT NOT NULL,
                      text TEXT NOT NULL DEFAULT '',
                      sources TEXT NOT NULL DEFAULT '[]',
                      citations TEXT NOT NULL DEFAULT '[]',
                      follow_ups TEXT NOT NULL DEFAULT '[]',
                      metadata TEXT NOT NULL DEFAULT '{}',
                      tier TEXT,
                      state TEXT NOT NULL,
                      failure_message TEXT,
                      writer_pid INTEGER,
                      created_at REAL NOT NULL,
                      updated_at REAL NOT NULL,
                      UNIQUE (conversation_id, position)
                    );
                    CREATE INDEX answer_by_state ON answer (state);
                    """)
        }
        migrator.registerMigration("v2: answer text in appended chunks", migrate: AnswerTextChunks.migrate)
        migrator.registerMigration("v3: a model's reasoning, refusal and tool calls") { db in
            try db.execute(
                sql: """
                    ALTER TABLE answer ADD COLUMN reasoning TEXT NOT NULL DEFAULT '';
                    ALTER TABLE answer ADD COLUMN refusal TEXT NOT NULL DEFAULT '';
                    ALTER TABLE answer ADD COLUMN tool_calls TEXT NOT NULL DEFAULT '[]';
                    """)
        }
        migrator.registerMigration("v4: how long the model reasoned") { db in
            try db.execute(sql: "ALTER TABLE answer ADD COLUMN reasoning_ms INTEGER")
        }
        return migrator
    }

    /// Opens the file at `path`, creating it and its folder if needed. A file that exists and that this
    /// process may not write, or in a folder it may not write, is opened read-only, in a way that
    /// creates no `-wal` or `-shm` file beside it (see `readOnlyLocation(of:)`).
    static func openFile(at path: String) throws -> (writer: any DatabaseWriter, isReadOnly: Bool) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ConversationStoreError.unreadable(path: path, detail: "cannot create its folder (\(error.localizedDescription))")
        }
        var isDirectory: ObjCBool = false
        var isReadOnly = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw ConversationStoreError.unreadable(path: path, detail: "it is a directory") }
            if !FileManager.default.isReadableFile(atPath: path) {
                throw ConversationStoreError.unreadable(path: path, detail: "permission denied")
            }
            isReadOnly =
                !FileManager.default.isWritableFile(atPath: path) || !FileManager.default.isWritableFile(atPath: folder.path)
            let location = isReadOnly ? readOnlyLocation(of: path) : path
            if let tables = foreignTables(at: location) { throw ConversationStoreError.foreign(path: path, tables: tables) }
        }
        do {
            if isReadOnly {
                var configuration = configuration
                configuration.readonly = true
                return (try DatabaseQueue(path: readOnlyLocation(of: path), configuration: configuration), true)
            }
            return (try DatabasePool(path: path, configuration: configuration), false)
        } catch let error as DatabaseError {
            throw storeError(error, path: path, operation: "opening")
        }
    }

    /// Where a read-only connection opens `path`. A WAL database read the usual way gets a `-shm`
    /// (and `-wal`) file created beside it, which a read-only reader would leave behind. When no
    /// `-wal` holds transactions the file does not have yet, the file alone is the whole database:
    /// it is opened as `immutable`, which reads it without locks or side files. Otherwise the
    /// pending log must be read, through the side files that are already there.
    private static func readOnlyLocation(of path: String) -> String {
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
        guard log == 0, let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
            return path
        }
        return "file:\(escaped)?immutable=1"
    }

    /// The tables of another program's database at `location` (a path, or a read-only location): it has tables, or migrations, and none of
    /// Cadence's migrations was applied to it. `nil` for an empty file, a Cadence history, or a file
    /// that cannot be read as a database (the writable open reports that, as before). Read through a
    /// read-only connection, before the store's own connection switches the file to WAL.
    private static func foreignTables(at location: String) -> [String]? {
        var configuration = Configuration()
        configuration.readonly = true
        guard
            let probe = try? DatabaseQueue(path: location, configuration: configuration),
            let (tables, applied) = try? probe.read({ db in
                (
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                            """),
                    try migrator.appliedIdentifiers(db)
                )
            })
        else { return nil }
        let isEmpty = tables.allSatisfy { $0 == "grdb_migrations" } && applied.isEmpty
        guard !isEmpty, applied.isDisjoint(with: migrator.migrations) else { return nil }
        return tables
    }
}
