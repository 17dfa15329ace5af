public import Foundation

extension Corpus {
    /// The file extensions a corpus folder is read for (compared case-insensitively). HTML files
    /// are indexed by their readable text.
    public static let fileExtensions: Set<String> = ["md", "markdown", "txt", "html", "htm"]

    /// The corpus that ships with Cadence: documents about Cadence itself, streaming protocols
    /// and search, indexed in memory. Its URLs read `cadence://corpus/<collection>/<file>#<section>`.
    ///
    /// - Throws: ``CorpusError`` with code `.missingBundle` if the resources were not installed.
    public static func bundled() throws(CorpusError) -> Corpus {
        guard let folder = Bundle.module.url(forResource: "Corpus", withExtension: nil) else {
            throw CorpusError(
                code: .missingBundle, path: Bundle.module.bundlePath,
                message: "the bundled corpus is missing; rebuild Cadence so its resources are copied")
        }
        let root = folder.standardizedFileURL
        var documents: [Document] = []
        for file in try CorpusIndex.scan(root).sorted(by: { Self.folderOrder($0.subpath, $1.subpath) }) {
            documents.append(try CorpusIndex.readDocument(file.subpath, in: root, rootCollection: "cadence", fileURL: false))
        }
        return try Corpus(documents: documents)
    }

    /// Indexes every `.md`, `.markdown`, `.txt`, `.html` and `.htm` file under `directory`,
    /// recursively, into the index file at `indexPath` (or into memory when it is nil), and
    /// searches that index.
    ///
    /// Each top-level subfolder is a collection (`notes/streaming/sse.md` belongs to `streaming`);
    /// files directly in `directory` belong to a collection named after it. Hidden files and
    /// folders are skipped. Source URLs are `file://` URLs of the files. An index file kept from
    /// an earlier start is updated: only new files and files whose size or modification time
    /// changed are read, and documents whose file is gone are dropped.
    ///
    /// ```swift
    /// let corpus = try Corpus(directory: URL(fileURLWithPath: "/home/me/notes"), indexPath: "/tmp/notes.sqlite")
    /// ```
    ///
    /// - Throws: ``CorpusError`` naming the path when it is missing, not a folder, unreadable,
    ///   or holds no document with any text; with code `.index` when the index cannot be written.
    public init(directory: URL, indexPath: String? = nil) throws(CorpusError) {
        let index: CorpusIndex
        if let indexPath { index = try CorpusIndex(path: indexPath) } else { index = try CorpusIndex() }
        try index.update(from: directory)
        try self.init(index: index)
        guard passageCount > 0 else {
            throw CorpusError(
                code: .empty, path: directory.standardizedFileURL.path, message: "its documents contain no text to search")
        }
    }

    /// Files directly in the folder first, then each subfolder (collection) by path.
    static func folderOrder(_ left: String, _ right: String) -> Bool {
        (left.contains("/") ? 1 : 0, left) < (right.contains("/") ? 1 : 0, right)
    }
}
