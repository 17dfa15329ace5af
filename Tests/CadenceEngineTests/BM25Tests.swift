import Testing

@testable import CadenceEngine

@Suite struct BM25Tests {
    /// A small corpus where the right answer to each query is obvious to a person.
    static let corpus = Corpus(documents: [
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
        let index = Self.corpus.index
        // "server" is in three of four passages, "jitter" in one.
        #expect(index.documentFrequency(of: "server") == 3)
        #expect(index.idf(of: "jitter") > index.idf(of: "server"))
        #expect(index.idf(of: "server") > 0)
        #expect(index.idf(of: "absent") == 0)
        // So a query with both ranks the passage with the rare term first.
        #expect(Self.corpus.search("server jitter", limit: 1).first?.document.path == "retry.md")
    }

    @Test func repeatedTermsSaturate() {
        let index = BM25Index(passages: [["a", "x"], ["a", "a", "a", "a", "a", "a", "a", "a"], ["b"], ["c"]])
        let scores = index.scores(for: ["a": 1])
        // Eight occurrences score higher than one, but far less than eight times as much.
        #expect(scores[1]! > scores[0]!)
        #expect(scores[1]! < 2 * scores[0]!)
    }

    @Test func longerPassagesAreNormalised() {
        let index = BM25Index(passages: [["a", "b"], ["a"] + Array(repeating: "filler", count: 30), ["c"]])
        let scores = index.scores(for: ["a": 1])
        #expect(scores[0]! > scores[1]!)
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
