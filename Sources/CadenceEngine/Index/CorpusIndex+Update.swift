public import Foundation
import GRDB

extension CorpusIndex {
    /// What an ``CorpusIndex/update(from:)`` did to the index.
    public struct UpdateReport: Sendable, Hashable {
        /// Files indexed for the first time.
        public var added = 0
        /// Files re-read because their size or modification time changed.
        public var changed = 0
        /// Documents dropped because their file is gone.
        public var removed = 0
        /// Files left as they were indexed.
        public var unchanged = 0
    }

    /// A file of the folder as listed: where it is and the size and time that tell whether it changed.
    struct FileStamp: Sendable, Hashable {
        var subpath: String
        var size: Int64
        var modified: Double
    }

    /// Brings the index up to date with the `.md`, `.markdown`, `.txt`, `.html` and `.htm` files
    /// under `directory`: reads new files and those whose size or modification time changed, drops
    /// documents whose file is gone, and leaves the rest alone. All changes land in one transaction.
    /// An index made from another folder is rebuilt from this one.
    ///
    /// - Throws: ``CorpusError`` naming the path when the folder is missing, not a folder, holds no
    ///   such file, or a file cannot be read; or with code `.index` when the index cannot be written.
    @discardableResult
    public func update(from directory: URL) throws(CorpusError) -> UpdateReport {
        let root = directory.standardizedFileURL
        let files = try Self.scan(root)
        let (storedRoot, known) = try read { db in
            let storedRoot = try String.fetchOne(db, sql: "SELECT value FROM corpus_setting WHERE name = 'root'")
            var known: [String: (id: Int64, stamp: FileStamp)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, subpath, size, modified FROM document") {
                let stamp = FileStamp(subpath: row[1], size: row[2], modified: row[3])
                known[stamp.subpath] = (row[0], stamp)
            }
            return (storedRoot, known)
        }
        let sameRoot = storedRoot == root.path
        var report = UpdateReport()
        var stale: [Int64] = []
        var fresh: [(stamp: FileStamp, document: Document)] = []
        for file in files {
            let previous = sameRoot ? known[file.subpath] : nil
            if previous?.stamp == file {
                report.unchanged += 1
                continue
            }
            if let previous {
                stale.append(previous.id)
                report.changed += 1
            } else {
                report.added += 1
            }
            fresh.append((file, try Self.readDocument(file.subpath, in: root)))
        }
        let listed = Set(files.map(\.subpath))
        let gone = sameRoot ? known.values.filter { !listed.contains($0.stamp.subpath) }.map { $0.id } : []
        report.removed = sameRoot ? gone.count : known.count
        guard !sameRoot || !stale.isEmpty || !gone.isEmpty || !fresh.isEmpty else { return report }
        try write { db in
            if sameRoot {
                for id in stale + gone { try Self.deleteDocument(id, db) }
            } else {
                try db.execute(sql: "DELETE FROM passage_text; DELETE FROM passage; DELETE FROM document")
                try db.execute(
                    sql: "INSERT OR REPLACE INTO corpus_setting (name, value) VALUES ('root', ?)", arguments: [root.path])
            }
            for (stamp, document) in fresh {
                try Self.insert(document, ordinal: 0, stamp: stamp, db)
            }
        }
        frequencies.removeAll()
        return report
    }

    /// Replaces whatever the index holds with `documents`, in their order.
    public func replace(with documents: [Document]) throws(CorpusError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM passage_text; DELETE FROM passage; DELETE FROM document; DELETE FROM corpus_setting")
            for (ordinal, document) in documents.enumerated() {
                let stamp = FileStamp(
                    subpath: "\(ordinal)/\(document.collection)/\(document.path)", size: Int64(document.text.utf8.count),
                    modified: 0)
                try Self.insert(document, ordinal: ordinal, stamp: stamp, db)
            }
        }
        frequencies.removeAll()
    }

    /// Separates a passage's blocks in the indexed body; a tokenizer separator, never in a word.
    static let blockSeparator: Character = "\u{1E}"

    private static func insert(_ document: Document, ordinal: Int, stamp: FileStamp, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO document (ordinal, subpath, collection, path, url, title, size, modified, text)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            ordinal, stamp.subpath, document.collection, document.path, document.url, document.title, stamp.size,
            stamp.modified, document.text,
        ])
        let documentID = db.lastInsertedRowID
        let passageRow = try db.cachedStatement(
            sql: "INSERT INTO passage (document, position, heading, anchor, kinds) VALUES (?, ?, ?, ?, ?)")
        let textRow = try db.cachedStatement(
            sql: "INSERT INTO passage_text (rowid, title, heading, body, collection) VALUES (?, ?, ?, ?, ?)")
        for (position, passage) in Passage.split(document, documentIndex: 0).enumerated() {
            let kinds = String(passage.blocks.map(\.kind.code))
            try passageRow.execute(arguments: [documentID, position, passage.heading, passage.anchor, kinds])
            let body = passage.blocks.map { $0.text.replacingOccurrences(of: "\u{1E}", with: " ") }
                .joined(separator: String(blockSeparator))
            // The heading counts once when it repeats the title, as the passage's terms always have.
            let heading = passage.heading == document.title ? nil : passage.heading
            try textRow.execute(arguments: [db.lastInsertedRowID, document.title, heading, body, document.collection])
        }
    }

    private static func deleteDocument(_ id: Int64, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM passage_text WHERE rowid IN (SELECT id FROM passage WHERE document = ?)", arguments: [id])
        try db.execute(sql: "DELETE FROM passage WHERE document = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM document WHERE id = ?", arguments: [id])
    }
}

extension TextBlock.Kind {
    /// One letter per kind, as the index stores a passage's blocks.
    var code: Character {
        switch self {
        case .paragraph: "p"
        case .listItem: "l"
        case .code: "c"
        case .table: "t"
        }
    }

    init(code: Character) {
        switch code {
        case "l": self = .listItem
        case "c": self = .code
        case "t": self = .table
        default: self = .paragraph
        }
    }
}
