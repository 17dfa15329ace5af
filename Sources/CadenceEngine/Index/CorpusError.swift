/// A corpus could not be loaded. The message names the path and says what to do.
///
/// ```swift
/// do { _ = try Corpus(directory: URL(fileURLWithPath: "/no/such/folder")) }
/// catch let error as CorpusError { print(error) }
/// // "cannot load a corpus from /no/such/folder: no such folder"
/// ```
public struct CorpusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Code
    /// The path the error is about.
    public var path: String
    /// What went wrong, for people.
    public var message: String

    public var description: String { "cannot load a corpus from \(path): \(message)" }

    /// What kind of failure it was.
    public enum Code: Sendable, Hashable {
        /// Nothing exists at the path.
        case notFound
        /// The path is a file, not a folder.
        case notADirectory
        /// The folder or one of its files could not be read.
        case unreadable
        /// The folder holds no `.md`, `.markdown` or `.txt` file with any text.
        case empty
        /// The corpus that ships with Cadence is missing from the bundle.
        case missingBundle
        /// The index file cannot be opened, read or written (the path is the index's).
        case index
    }
}
