/// Why the conversation store could not do what was asked. Every case about the database file names it.
///
/// ```swift
/// do { _ = try SQLiteConversationStore(path: path) }
/// catch let error as ConversationStoreError { print("cadence: \(error)") }
/// // cadence: /home/me/.local/share/cadence/conversations.sqlite is not a Cadence conversation
/// //          database (file is not a database); it was left untouched…
/// ```
public enum ConversationStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but is not a SQLite database, or is damaged. It is never replaced.
    case corrupt(path: String, detail: String)
    /// The file or its folder could not be opened, read or created (permissions, a directory in
    /// the way, a read-only disk).
    case unreadable(path: String, detail: String)
    /// The file was written by a newer Cadence whose schema this version does not know.
    case newerSchema(path: String)
    /// The file is another program's SQLite database: it holds these tables and no Cadence schema.
    /// It is never migrated or changed.
    case foreign(path: String, tables: [String])
    /// Any other SQLite error, with the operation that hit it.
    case database(path: String, operation: String, detail: String)
    /// No conversation or answer has this id.
    case notFound(String)

    public var description: String {
        switch self {
        case .corrupt(let path, let detail):
            "\(path) is not a Cadence conversation database (\(detail)); it was left untouched. "
                + "Move it aside to start a new history, or pass another file."
        case .unreadable(let path, let detail):
            "cannot open the conversation database \(path): \(detail)"
        case .newerSchema(let path):
            "\(path) was written by a newer version of Cadence; it was left untouched"
        case .foreign(let path, let tables):
            "\(path) is another program's SQLite database (it holds \(Self.list(tables)) and no Cadence history); "
                + "it was left untouched. Pass a new file or a Cadence history."
        case .database(let path, let operation, let detail):
            "conversation database \(path): \(operation) failed: \(detail)"
        case .notFound(let id):
            "no conversation or answer with id \(id)"
        }
    }

    /// `table a`, `tables a, b, c`, or the first five and how many more.
    private static func list(_ tables: [String]) -> String {
        let shown = tables.prefix(5).joined(separator: ", ")
        let more = tables.count > 5 ? " and \(tables.count - 5) more" : ""
        return (tables.count == 1 ? "table " : "tables ") + shown + more
    }
}
