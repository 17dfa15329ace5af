import Testing

@testable import CadenceEngine

@Suite struct BM25Tests {
    /// A small corpus where the right answer to each query is obvious to a person.
    static let corpus = try! Corpus(documents: [
        page("retry.md", "Retrying requests", "Retry failed requests with exponential backoff. Add jitter to the backoff."),
        page("sse.md", "Server-Sent Events", "The server streams events over HTTP. Each event has an id."),
        page("websocket.md", "WebSockets", "A WebSocket is a two-way connection. The server and the client both send frames."),
        page(
            "bread.md", in: "food", "Baking bread",
            "Knead the dough, let it rise, and bake it in a hot oven. The server is a baker."),
    ])

    /// A markdown document with a title and one paragraph.
    static func page(_ path: String, in collection: String = "net", _ title: String, _ text: String) -> Document {
        Document(collection: collection, path: path, text: "# \(title)\n\n\(text)")
    }

    @Test(arguments: [
        ("exponential backoff", "retry.md"),
        ("How do I add jitter?", "retry.md"),
        ("event id", "sse.md"),
        ("two-way frames", "websocket.md"),
        ("baking bread in an oven", "bread.md"),
    ])
    func theObviouslyRelevantDocumentRanksFirst(query: String, expected: String) {
        let hits = Self.corpus.search(query, limit: 10)
        #expect(hits.first?.document.path == expected)
    }

    @Test func rareTermsWeighMoreThanCommonOnes() {
        let corpus = Self.corpus
        // "server" is in three of four passages, "jitter" in one.
        #expect(corpus.documentFrequency(ofWord: "server") == 3)
        #expect(corpus.idf(ofWord: "jitter") > corpus.idf(ofWord: "server"))
        #expect(corpus.idf(ofWord: "server") > 0)
        #expect(corpus.idf(ofWord: "absent") == 0)
        // So a query with both ranks the passage with the rare term first.
        #expect(Self.corpus.search("server jitter", limit: 1).first?.document.path == "retry.md")
    }

    /// Documents of one passage each, and a few without the searched word so that its IDF counts.
    static func corpus(_ texts: [String]) throws -> Corpus {
        let fillers = (0..<6).map { "unrelated words number \($0)" }
        return try Corpus(
            documents: (texts + fillers).enumerated().map { Document(collection: "c", path: "\($0).txt", text: $1) })
    }

    @Test func repeatedTermsSaturate() throws {
        let corpus = try Self.corpus(["alpha xray", "alpha alpha alpha alpha alpha alpha alpha alpha"])
        let scores = Dictionary(uniqueKeysWithValues: corpus.search("alpha", limit: 5).map { ($0.document.path, $0.score) })
        // Eight occurrences score higher than one, but far less than eight times as much.
        #expect(scores["1.txt"]! > scores["0.txt"]!)
        #expect(scores["1.txt"]! < 2 * scores["0.txt"]!)
    }

    @Test func longerPassagesAreNormalised() throws {
        let corpus = try Self.corpus(["alpha bravo", "alpha " + Array(repeating: "filler", count: 30).joined(separator: " ")])
        #expect(corpus.search("alpha", limit: 5).map(\.document.path) == ["0.txt", "1.txt"])
    }

    @Test func resultsAreSortedLimitedAndPositive() {
        let hits = Self.corpus.search("server", limit: 2)
        #expect(hits.count == 2)
        #expect(hits[0].score >= hits[1].score)
        #expect(hits.allSatisfy { $0.score > 0 })
        #expect(Self.corpus.search("server", limit: 0).isEmpty)
    }

    @Test(arguments: ["", "how does it do what?", "quantum chromodynamics"])
    func queriesWithNothingToMatchFindNothing(query: String) {
        #expect(Self.corpus.search(query, limit: 5).isEmpty)
    }

    @Test func hitsCarrySectionURLs() {
        let hit = Self.corpus.search("dough", limit: 1).first
        #expect(hit?.url == "cadence://corpus/food/bread.md#baking-bread")
        #expect(hit?.heading == "Baking bread")
        #expect(hit?.text.contains("Knead the dough") == true)
    }
}
