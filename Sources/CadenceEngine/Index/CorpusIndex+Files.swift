import Foundation

extension CorpusIndex {
    /// The files of a corpus folder that are indexed, with their sizes and modification times.
    ///
    /// Each top-level subfolder is a collection; hidden files and folders are skipped.
    static func scan(_ root: URL) throws(CorpusError) -> [FileStamp] {
        let manager = FileManager.default
        let rootPath = root.path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: rootPath, isDirectory: &isDirectory) else {
            throw CorpusError(code: .notFound, path: rootPath, message: "no such folder")
        }
        guard isDirectory.boolValue else {
            throw CorpusError(code: .notADirectory, path: rootPath, message: "it is a file; pass the folder that contains it")
        }
        guard let walker = manager.enumerator(atPath: rootPath), manager.isReadableFile(atPath: rootPath) else {
            throw CorpusError(code: .unreadable, path: rootPath, message: "the folder cannot be listed")
        }
        var files: [FileStamp] = []
        while let subpath = walker.nextObject() as? String {
            let name = subpath.split(separator: "/").last.map(String.init) ?? subpath
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            guard let dot = name.lastIndex(of: "."),
                Corpus.fileExtensions.contains(name[name.index(after: dot)...].lowercased()),
                let attributes = try? manager.attributesOfItem(atPath: root.appendingPathComponent(subpath).path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            files.append(
                FileStamp(
                    subpath: subpath, size: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                    modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0))
        }
        guard !files.isEmpty else {
            throw CorpusError(
                code: .empty, path: rootPath,
                message: "it holds no .md, .markdown, .txt or .html files; add some, or point at another folder")
        }
        return files
    }

    /// Reads one file of the folder as a document of its collection (`rootCollection`, by default the
    /// folder's name, for files directly in it), with a `file://` URL unless `fileURL` is false.
    static func readDocument(
        _ subpath: String, in root: URL, rootCollection: String? = nil, fileURL: Bool = true
    ) throws(CorpusError) -> Document {
        let file = root.appendingPathComponent(subpath)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CorpusError(code: .unreadable, path: file.path, message: "the file cannot be read; check its permissions")
        }
        let components = subpath.split(separator: "/").map(String.init)
        let inSubfolder = components.count > 1
        var text = String(decoding: data, as: UTF8.self)
        var title: String?
        if ["html", "htm"].contains(file.pathExtension.lowercased()) {
            // The same extractor as fetched pages, so a saved page reads as it would over the web.
            let page = HTMLTextExtractor().extract(Array(data))
            text = page.text
            title = page.title.isEmpty ? nil : page.title
        }
        return Document(
            collection: inSubfolder ? components[0] : rootCollection ?? root.lastPathComponent,
            path: inSubfolder ? components.dropFirst().joined(separator: "/") : subpath,
            text: text, title: title, url: fileURL ? file.absoluteString : nil)
    }
}
