public import Foundation

extension Corpus {
    /// The file extensions a corpus folder is read for (compared case-insensitively).
    public static let fileExtensions: Set<String> = ["md", "markdown", "txt"]

    /// The corpus that ships with Cadence: documents about Cadence itself, streaming protocols
    /// and search. Its URLs read `cadence://corpus/<collection>/<file>#<section>`.
    ///
    /// - Throws: ``CorpusError`` with code `.missingBundle` if the resources were not installed.
    public static func bundled() throws(CorpusError) -> Corpus {
        guard let folder = Bundle.module.url(forResource: "Corpus", withExtension: nil) else {
            throw CorpusError(
                .missingBundle, path: Bundle.module.bundlePath,
                message: "the bundled corpus is missing; rebuild Cadence so its resources are copied")
        }
        return Corpus(documents: try loadDocuments(from: folder, rootCollection: "cadence", fileURLs: false))
    }

    /// Reads every `.md`, `.markdown` and `.txt` file under `directory`, recursively.
    ///
    /// Each top-level subfolder is a collection (`notes/streaming/sse.md` belongs to `streaming`);
    /// files directly in `directory` belong to a collection named after it. Hidden files and
    /// folders are skipped. Source URLs are `file://` URLs of the files.
    ///
    /// ```swift
    /// let corpus = try Corpus(directory: URL(fileURLWithPath: "/home/me/notes"))
    /// ```
    ///
    /// - Throws: ``CorpusError`` naming the path when it is missing, not a folder, unreadable,
    ///   or holds no document with any text.
    public init(directory: URL) throws(CorpusError) {
        let root = directory.standardizedFileURL
        self.init(documents: try Self.loadDocuments(from: root, rootCollection: root.lastPathComponent, fileURLs: true))
        guard passageCount > 0 else {
            throw CorpusError(.empty, path: root.path, message: "its documents contain no text to search")
        }
    }

    private static func loadDocuments(
        from root: URL, rootCollection: String, fileURLs: Bool
    ) throws(CorpusError)
        -> [Document]
    {
        let manager = FileManager.default
        let rootPath = root.path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: rootPath, isDirectory: &isDirectory) else {
            throw CorpusError(.notFound, path: rootPath, message: "no such folder")
        }
        guard isDirectory.boolValue else {
            throw CorpusError(.notADirectory, path: rootPath, message: "it is a file; pass the folder that contains it")
        }
        let subpaths: [String]
        do {
            subpaths = try manager.subpathsOfDirectory(atPath: rootPath)
        } catch {
            throw CorpusError(.unreadable, path: rootPath, message: "the folder cannot be listed (\(error))")
        }
        var documents: [Document] = []
        // Files directly in the folder first, then each subfolder (collection) in name order.
        let ordered = subpaths.sorted { ($0.contains("/") ? 1 : 0, $0) < ($1.contains("/") ? 1 : 0, $1) }
        for subpath in ordered {
            let components = subpath.split(separator: "/").map(String.init)
            guard let name = components.last, !components.contains(where: { $0.hasPrefix(".") }),
                let dot = name.lastIndex(of: "."), fileExtensions.contains(name[name.index(after: dot)...].lowercased())
            else { continue }
            let file = root.appendingPathComponent(subpath)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard let data = manager.contents(atPath: file.path) else {
                throw CorpusError(
                    .unreadable, path: file.path, message: "the file cannot be read; check its permissions")
            }
            let inSubfolder = components.count > 1
            documents.append(
                Document(
                    collection: inSubfolder ? components[0] : rootCollection,
                    path: inSubfolder ? components.dropFirst().joined(separator: "/") : subpath,
                    text: String(decoding: data, as: UTF8.self),
                    url: fileURLs ? file.absoluteString : nil))
        }
        guard !documents.isEmpty else {
            throw CorpusError(
                .empty, path: rootPath,
                message: "it holds no .md, .markdown or .txt files; add some, or point at another folder")
        }
        return documents
    }
}
