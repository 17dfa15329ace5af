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
        case .database(let path, let operation, let detail):
            "conversation database \(path): \(operation) failed: \(detail)"
        case .notFound(let id):
            "no conversation or answer with id \(id)"
        }
    }
}
