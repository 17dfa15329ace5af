import GRDB

extension CorpusIndex {
    /// The most distinct words one query searches for; the rest of a very long query is ignored.
    static let maximumQueryWords = 64

    /// An FTS5 expression that matches any of `words`, each quoted as a string so that nothing a
    /// user typed (`"`, `NEAR(`, `*`, `AND`, a column name) is read as query syntax; nil without words.
    static func matchExpression(anyOf words: [String]) -> String? {
        var seen = Set<String>()
        var quoted: [String] = []
        for word in words where quoted.count < maximumQueryWords && !word.isEmpty && seen.insert(word).inserted {
            quoted.append("\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        return quoted.isEmpty ? nil : quoted.joined(separator: " OR ")
    }

    /// The best `limit` passages (by rowid) matching `expression`, with their BM25 scores (positive,
    /// higher is better) and FTS5's snippet of each passage's text around the words matched,
    /// optionally within one collection. `rows` is how many passages the expression may match at
    /// most (the sum of its words' document frequencies), which decides how the rows are sorted.
    ///
    /// Ordering by FTS5's `rank` column (`bm25()`) lets FTS5 sort inside the virtual table, so the
    /// snippet is made only for the rows returned, not for every row that matches; but FTS5 sorts
    /// every row it matched. For more than ``topSortRows`` rows, ordering by a `bm25()` column
    /// instead lets SQLite keep only the best `limit` as it goes (a quarter less time on 10,000
    /// rows), and the snippets are then made row by row.
    func matches(_ expression: String, in collection: String?, limit: Int, rows: Int = 0) throws(CorpusError) -> [Match] {
        try read { db in
            let filter = collection == nil ? "" : " AND collection = ?"
            var arguments: StatementArguments = [expression]
            if let collection { arguments += [collection] }
            arguments += [limit]
            guard rows > Self.topSortRows else {
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT rowid, rank, snippet(passage_text, 2, '', '', '…', \(Self.snippetTokens))
                        FROM passage_text WHERE passage_text MATCH ?\(filter) ORDER BY rank LIMIT ?
                        """)
                return try Row.fetchAll(statement, arguments: arguments).map { row in
                    (id: row[0], score: -(row[1] as Double), snippet: Self.snippet(row[2]))
                }
            }
            let ranked = try db.cachedStatement(
                sql: """
                    SELECT rowid, bm25(passage_text) AS score FROM passage_text
                    WHERE passage_text MATCH ?\(filter) ORDER BY score LIMIT ?
                    """)
            let snippet = try db.cachedStatement(
                sql: """
                    SELECT snippet(passage_text, 2, '', '', '…', \(Self.snippetTokens))
                    FROM passage_text WHERE passage_text MATCH ? AND rowid = ?
                    """)
            return try Row.fetchAll(ranked, arguments: arguments).map { row in
                let id: Int64 = row[0]
                let text = try String.fetchOne(snippet, arguments: [expression, id])
                return (id: id, score: -(row[1] as Double), snippet: Self.snippet(text))
            }
        }
    }

    /// Rows past which a query is sorted by SQLite, keeping the best as it goes, rather than by FTS5.
    static let topSortRows = 1_000

    /// A snippet as FTS5 made it, its blocks' separators made spaces.
    private static func snippet(_ text: String?) -> String {
        (text ?? "").replacingOccurrences(of: String(blockSeparator), with: " ")
    }

    /// How many words (at most 64, FTS5's limit) a hit's snippet holds.
    static let snippetTokens = 32

    /// How many passages contain `word` (as the index stems it); 0 when none do or the index cannot be read.
    func documentFrequency(ofWord word: String) -> Int {
        frequencies.value(for: word.lowercased()) {
            guard let expression = Self.matchExpression(anyOf: [word]) else { return 0 }
            return (try? read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM passage_text WHERE passage_text MATCH ?", arguments: [expression])
            } ?? 0) ?? 0
        }
    }

    /// Everything a ``Corpus`` keeps in memory: the documents in order, and their passages in order
    /// with the rowid of each.
    func load() throws(CorpusError) -> (documents: [Document], passages: [Passage], ids: [Int64]) {
        try read { db in
            var documents: [Document] = []
            var positions: [Int64: Int] = [:]
            // Files directly in the folder first, then each subfolder (collection) by path.
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, collection, path, url, title, text FROM document
                    ORDER BY ordinal, instr(subpath, '/') > 0, subpath
                    """)
            {
                positions[row[0]] = documents.count
                documents.append(
                    Document(collection: row[1], path: row[2], text: row[5], title: row[4], url: row[3]))
            }
            var passages: [(document: Int, position: Int, id: Int64, passage: Passage)] = []
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.document, p.position, p.heading, p.anchor, p.kinds, t.body
                    FROM passage p JOIN passage_text t ON t.rowid = p.id
                    """)
            {
                guard let document = positions[row[1]] else { continue }
                let kinds: String = row[5]
                let texts = (row[6] as String).split(separator: Self.blockSeparator, omittingEmptySubsequences: false)
                let blocks = zip(kinds, texts).map { TextBlock(kind: .init(code: $0), text: String($1)) }
                passages.append(
                    (document, row[2], row[0], Passage(documentIndex: document, heading: row[3], anchor: row[4], blocks: blocks)))
            }
            passages.sort { ($0.document, $0.position) < ($1.document, $1.position) }
            return (documents, passages.map(\.passage), passages.map(\.id))
        }
    }
}
