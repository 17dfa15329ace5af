import CadenceCore

/// One document of a ``Corpus``: a markdown or plain-text file and where it came from.
///
/// ```swift
/// let document = Document(collection: "notes", path: "retry.md", text: "# Retrying\n\nBack off exponentially.")
/// document.title  // "Retrying"
/// document.url    // "cadence://corpus/notes/retry.md"
/// ```
public struct Document: Sendable, Hashable {
    /// The collection (top-level folder) the document belongs to; searches report per collection.
    public var collection: String
    /// The file's path inside its collection, such as `"resume.md"` or `"guides/retry.md"`.
    public var path: String
    /// The first heading, or a title made from the file name when there is none.
    public var title: String
    /// The full text.
    public var text: String
    /// Where the document lives, without a section anchor: `cadence://corpus/<collection>/<path>`
    /// for documents that ship with Cadence, `file://…` for a user's files.
    public var url: String

    /// Makes a document; `title` defaults to the first heading (or the file name) and `url` to
    /// `cadence://corpus/<collection>/<path>`.
    public init(collection: String, path: String, text: String, title: String? = nil, url: String? = nil) {
        self.collection = collection
        self.path = path
        self.text = text
        self.title = title ?? MarkdownBlocks.firstHeading(in: text) ?? Self.title(fromPath: path)
        let (folder, file) = (PercentEncoding.encode(collection, keepingSlashes: true), PercentEncoding.encode(path, keepingSlashes: true))
        self.url = url ?? "cadence://corpus/\(folder)/\(file)"
    }

    /// "retry-with_backoff.md" → "Retry with backoff".
    static func title(fromPath path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let words = (stem.isEmpty ? file : stem).split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " })
        let title = words.joined(separator: " ")
        return title.prefix(1).uppercased() + title.dropFirst()
    }
}
