import Foundation
import Testing

@testable import CadenceEngine

/// The persistent FTS5 index: incremental updates of a real SQLite file, Unicode, a 10,000-file
/// folder, and queries that are not FTS5 syntax.
@Suite struct CorpusIndexTests {
    /// Sets a file's modification time, so that "changed" never depends on the clock's resolution.
    static func touch(_ folder: TemporaryFolder, _ path: String, at seconds: Double) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: folder.url.appendingPathComponent(path).path)
    }

    static func paths(_ corpus: Corpus, _ query: String) -> [String] {
        corpus.search(query, limit: 10).map(\.document.path)
    }

    @Test func laterStartsReadOnlyWhatChangedAndDropWhatIsGone() throws {
        let folder = try TemporaryFolder()
        let store = try TemporaryFolder()
        let indexPath = store.url.appendingPathComponent("data/corpus.sqlite").path
        try folder.write("retry.md", "# Retrying\n\nBack off with jitter between attempts.")
        try folder.write("sse.md", "# Server-Sent Events\n\nThe server streams events; the browser reconnects.")
        try folder.write("garden/tomato.txt", "Tomatoes need sun and regular watering.")
        for path in ["retry.md", "sse.md", "garden/tomato.txt"] { try Self.touch(folder, path, at: 1_000) }

        let first = try CorpusIndex(path: indexPath)
        #expect(try first.update(from: folder.url) == .init(added: 3, changed: 0, removed: 0, unchanged: 0))
        #expect(Self.paths(try Corpus(index: first), "jitter") == ["retry.md"])

        // A later start: the same file, reopened, has everything and reads nothing again.
        let again = try CorpusIndex(path: indexPath)
        #expect(try again.update(from: folder.url) == .init(added: 0, changed: 0, removed: 0, unchanged: 3))
        #expect(Self.paths(try Corpus(index: again), "watering") == ["tomato.txt"])

        // Same size, new time; new size, same time; a new HTML file; a deleted file.
        try folder.write("retry.md", "# Retrying\n\nBack off with spread between attempts.")  // jitter → spread
        try Self.touch(folder, "retry.md", at: 2_000)
        try folder.write("garden/tomato.txt", "Tomatoes need sun, mulch and regular watering.")
        try Self.touch(folder, "garden/tomato.txt", at: 1_000)
        try folder.write(
            "guide.html",
            "<html><head><style>p { color: red }</style><script>var hidden = 'scriptword';</script></head>"
                + "<body><nav>Home</nav><h1>Polling &amp; backoff</h1><p>Long&nbsp;polling holds the request open.</p></body></html>")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sse.md"))

        let third = try CorpusIndex(path: indexPath)
        #expect(try third.update(from: folder.url) == .init(added: 1, changed: 2, removed: 1, unchanged: 0))
        let corpus = try Corpus(index: third)
        #expect(corpus.documents.map(\.path) == ["guide.html", "retry.md", "tomato.txt"])
        #expect(Self.paths(corpus, "jitter").isEmpty)
        #expect(Self.paths(corpus, "spread") == ["retry.md"])
        #expect(Self.paths(corpus, "mulch") == ["tomato.txt"])
        #expect(Self.paths(corpus, "browser reconnects").isEmpty)
        #expect(Self.paths(corpus, "long polling") == ["guide.html"])
        #expect(Self.paths(corpus, "scriptword color").isEmpty)
        #expect(corpus.documents.first?.title == "Polling & backoff")
        #expect(try third.counts().documents == 3)
        #expect(try third.counts().passages == corpus.passageCount)
    }

    @Test func anIndexOfAnotherFolderIsRebuilt() throws {
        let (one, two, store) = (try TemporaryFolder(), try TemporaryFolder(), try TemporaryFolder())
        try one.write("a.md", "# Alpha\n\nApples in the orchard.")
        try one.write("b.md", "# Beta\n\nBananas on the boat.")
        try two.write("c.md", "# Gamma\n\nCherries in the cellar.")
        let index = try CorpusIndex(path: store.url.appendingPathComponent("index.sqlite").path)
        try index.update(from: one.url)
        #expect(try index.update(from: two.url) == .init(added: 1, changed: 0, removed: 2, unchanged: 0))
        let corpus = try Corpus(index: index)
        #expect(corpus.documents.map(\.path) == ["c.md"])
        #expect(Self.paths(corpus, "apples bananas").isEmpty)
    }

    @Test func stemsAndDiacriticsMatchAndOtherScriptsDoNotCrash() throws {
        let corpus = try Corpus(documents: [
            Document(collection: "food", path: "cafe.md", text: "# Café\n\nThe café serves crème brûlée to its customers."),
            Document(collection: "jp", path: "ja.md", text: "# 日本語\n\n全文検索 は 索引 を使います。東京の天気。"),
            Document(collection: "misc", path: "emoji.md", text: "# Emoji 🎉\n\nParty 🎉🎉 streaming résumé naïve Ωmega."),
        ])
        #expect(Self.paths(corpus, "cafe") == ["cafe.md"])
        #expect(Self.paths(corpus, "CAFÉ creme brulee") == ["cafe.md"])
        #expect(Self.paths(corpus, "customer") == ["cafe.md"])  // Porter: customers → custom
        #expect(Self.paths(corpus, "streams resume") == ["emoji.md"])
        #expect(Self.paths(corpus, "全文検索") == ["ja.md"])
        #expect(Self.paths(corpus, "🎉 ωmega") == ["emoji.md"])
        #expect(Self.paths(corpus, "中文 テスト").isEmpty)
    }

    @Test func hitsCarryFTS5SnippetsAroundTheWordsMatched() throws {
        let filler = (1...60).map { "filler\($0)" }.joined(separator: " ")
        let corpus = try Corpus(documents: [
            Document(
                collection: "net", path: "retry.md",
                text: "# Retrying\n\n\(filler) clients back off with jitter after a failure. \(filler)\n\n- a list item"),
            Document(collection: "other", path: "jitter.md", text: "# Jitter\n\nJitter spreads retries."),
        ])
        let hit = try #require(corpus.search("jitter", limit: 5).first { $0.document.path == "retry.md" })
        #expect(hit.snippet.contains("jitter"))
        #expect(hit.snippet.hasPrefix("…") && hit.snippet.hasSuffix("…"))
        #expect(hit.snippet.split(separator: " ").count <= CorpusIndex.snippetTokens + 2)
        #expect(hit.snippet.count < hit.text.count / 3)
        #expect(!hit.snippet.contains("\u{1E}"))
        // Within one collection, as each research round searches.
        let inOther = corpus.search(["jitter": 1], words: ["jitter": "jitter"], in: "other", limit: 5)
        #expect(inOther.map(\.document.path) == ["jitter.md"])
        #expect(inOther.first?.snippet.contains("Jitter") == true)
    }

    @Test(arguments: [
        "\"", "\"\"\"", "NEAR(", "NEAR(jitter backoff", "*", "jitter*", "jitter\"", "\"jitter", "title:jitter",
        "jitter AND", "OR jitter", "NOT jitter", "(jitter", "jitter)", "^jitter", "-jitter", "jitter + backoff",
        "{title heading}: jitter", "jitter'; DROP TABLE passage; --",
    ])
    func queriesAreWordsNeverSyntax(query: String) throws {
        let corpus = try Corpus(documents: [
            Document(collection: "net", path: "retry.md", text: "# Retrying\n\nBack off with jitter."),
            Document(collection: "net", path: "near.md", text: "# Near\n\nNear and far, and or not."),
        ])
        let hits = corpus.search(query, limit: 5)
        if query.lowercased().contains("jitter") {
            #expect(hits.contains { $0.document.path == "retry.md" }, "\(query)")
        } else {
            #expect(hits.allSatisfy { $0.document.path == "near.md" }, "\(query)")
        }
        #expect(try corpus.index.counts().passages == 2)
    }

    @Test func aTenKilobyteQuerySearchesItsFirstWords() throws {
        let corpus = try Corpus(documents: [Document(collection: "net", path: "retry.md", text: "# Retrying\n\nBack off with jitter.")])
        let long = "jitter " + (0..<2_000).map { "w\($0)" }.joined(separator: " \" NEAR( * ")
        #expect(long.utf8.count > 10_000)
        #expect(Self.paths(corpus, long) == ["retry.md"])
        #expect(CorpusIndex.matchExpression(anyOf: ["a\"b", "c"]) == "\"a\"\"b\" OR \"c\"")
        #expect(CorpusIndex.matchExpression(anyOf: []) == nil)
    }

    @Test func anUnwritableIndexPathIsAClearError() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.md", "# A\n\nText.")
        // A folder where the file should be: SQLite cannot open it.
        let error = try #require(throws: CorpusError.self) { try Corpus(directory: folder.url, indexPath: folder.url.path) }
        #expect(error.code == .index)
        #expect(error.path == folder.url.path)
        #expect(error.description.contains("--index"))
    }

    @Test func aFolderOfTenThousandFiles() throws {
        let folder = try TemporaryFolder()
        let store = try TemporaryFolder()
        let topics = ["retry", "stream", "cache", "index", "socket", "parser", "render", "budget"]
        for number in 0..<10_000 {
            let topic = topics[number % topics.count]
            try folder.write(
                "c\(number % 10)/doc\(number).md",
                "# Note \(number) on \(topic)\n\nThis note about \(topic) carries the marker zq\(number)x.\n\n"
                    + "A second paragraph repeats \(topic) so that the passage is long enough to stand alone.")
        }
        let indexPath = store.url.appendingPathComponent("index.sqlite").path
        let index = try CorpusIndex(path: indexPath)
        #expect(try index.update(from: folder.url).added == 10_000)
        let corpus = try Corpus(index: index)
        #expect(corpus.documents.count == 10_000)
        #expect(corpus.collections.count == 10)
        #expect(corpus.passageCount == 10_000)
        for number in [0, 4_321, 9_999] {
            let hit = try #require(corpus.search("zq\(number)x", limit: 3).first)
            #expect(hit.document.path == "doc\(number).md")
            #expect(corpus.search("zq\(number)x", limit: 3).count == 1)
        }
        #expect(corpus.search("socket", limit: 2_000).count == 1_250)
        #expect(try CorpusIndex(path: indexPath).update(from: folder.url).unchanged == 10_000)
    }
}

