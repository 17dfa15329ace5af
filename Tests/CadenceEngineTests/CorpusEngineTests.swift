import CadenceCore
import Foundation
import Testing

@testable import CadenceEngine

@Suite struct CorpusEngineTests {
    static let corpus = try! Corpus.bundled()
    static let engine = CorpusEngine(corpus: corpus, tokenDelay: .zero, stageDelay: .zero)
    static let sample = "How does Cadence resume an interrupted stream?"

    @Test func stagesComeBeforeSourcesThenTokensThenCompletion() async throws {
        let run = try await AnswerRun(Self.engine, Self.sample)
        let order = [
            "tier_selected", "planning_started", "planning_complete", "round_started", "searching", "search_complete",
            "round_complete", "reflection_started", "reflection_complete", "source_selection_started",
            "sources_ready", "synthesis_started", "token",
        ]
        let firsts = order.map { run.firstIndex(of: $0) }
        #expect(!firsts.contains(nil), "missing a stage: \(zip(order, firsts).filter { $0.1 == nil }.map(\.0))")
        #expect(firsts.compactMap { $0 } == firsts.compactMap { $0 }.sorted())
        // Tokens are contiguous, after every stage, and `complete` is the single last event.
        let tokenRange = try #require(run.firstIndex(of: "token"))...(try #require(run.lastIndex(of: "token")))
        #expect(run.events[tokenRange].allSatisfy { $0.wireType == "token" })
        #expect(run.events.filter { $0.wireType == "complete" }.count == 1)
        #expect(run.events.last?.wireType == "complete")
        #expect(run.lastIndex(of: "reflection_complete")! < tokenRange.lowerBound)
    }

    @Test func everyCollectionIsSearchedInEveryRound() async throws {
        let run = try await AnswerRun(Self.engine, Self.sample)
        let rounds = run.events.filter { $0.wireType == "round_started" }.count
        var searched: [String] = []
        for (event, next) in zip(run.events, run.events.dropFirst()) {
            if case .searching(let source) = event {
                guard case .searchComplete(_, let completed) = next else {
                    Issue.record("searching(\(source)) not followed by search_complete")
                    continue
                }
                #expect(completed == source)
                searched.append(source)
            }
        }
        #expect(searched == Array(repeating: Self.corpus.collections, count: rounds).flatMap { $0 })
    }

    @Test(arguments: [
        sample,
        "What is BM25?",
        "How does SSE compare with WebSockets?",
        "Why use jitter?",
        "What are the SSE parsing rules for line endings and the BOM?",
        "How does the display pacer handle citations?",
        "How are citations like [2] kept whole while streaming markdown?",
    ])
    func answersCiteOnlyListedSourcesAndQuoteThemExactly(question: String) async throws {
        let run = try await AnswerRun(Self.engine, question)
        let sources = try #require(run.sources)
        let completion = try #require(run.completion)
        #expect(completion.sources == sources)
        #expect((1...5).contains(sources.count))
        #expect(sources.map(\.id) == sources.indices.map { String($0 + 1) })
        // One source per document.
        let documents = sources.map { $0.url.split(separator: "#").first.map(String.init) ?? $0.url }
        #expect(Set(documents).count == documents.count)
        // Every citation points at a listed source, and every listed source is cited.
        #expect(Set(run.citations) == Set(1...sources.count))
        // Extractive: every cited sentence appears word for word in the document it cites.
        for (number, sentence) in Self.citedSentences(in: run.text) {
            let url = documents[number - 1]
            let document = try #require(Self.corpus.documents.first { $0.url == url })
            let flattened = document.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .replacingOccurrences(of: "**", with: "")
            #expect(flattened.contains(sentence), "[\(number)] not quoted from \(url): \(sentence)")
        }
        let words = run.text.split(whereSeparator: \.isWhitespace).count
        #expect((60...260).contains(words), "\(words) words")
    }

    @Test func tokensAreSingleWordsThatJoinToTheAnswer() async throws {
        let run = try await AnswerRun(Self.engine, Self.sample)
        #expect(run.tokens.count > 40)
        for token in run.tokens {
            #expect(token.split(whereSeparator: \.isWhitespace).count == 1, "\(token.debugDescription)")
        }
        #expect(run.text.hasPrefix("This draws on") || run.text.hasPrefix("This comes from"))
        #expect(SentenceSplitter.wordTokens(in: run.text) == run.tokens)
    }

    @Test func theSampleQuestionGetsTheResumeDocumentFirst() async throws {
        let run = try await AnswerRun(Self.engine, Self.sample)
        let first = try #require(run.sources?.first)
        #expect(first.title == "Resuming an interrupted stream")
        #expect(first.url.hasPrefix("cadence://corpus/cadence/resume.md#"))
        #expect(run.text.contains("Last-Event-ID"))
        #expect(!first.snippet.isEmpty && first.snippet.count <= AnswerComposer.snippetLength + 1)
    }

    @Test(arguments: ["What is the capital of France?", "How does it do what?", ""])
    func aQuestionWithNoMatchGetsAnHonestAnswerAndNoSources(question: String) async throws {
        let run = try await AnswerRun(Self.engine, question)
        #expect(run.sources == [])
        #expect(run.completion?.sources == [])
        #expect(run.citations.isEmpty)
        #expect(run.text.contains("\(Self.corpus.documents.count) documents"))
        #expect(
            run.text.hasPrefix("I couldn't find anything about") || run.text.hasPrefix("Your question has no words"))
        #expect(run.completion?.metadata["hits"]?.intValue == 0)
        #expect(run.events.contains { if case .reflectionComplete(_, false) = $0 { true } else { false } })
        #expect((2...3).contains(run.completion?.followUps.count ?? 0))
    }

    @Test func theHonestAnswerNamesTheWordsAsWritten() async throws {
        let run = try await AnswerRun(Self.engine, "What is the capital of France?")
        #expect(run.text.hasPrefix("I couldn't find anything about capital or France in the corpus"))
    }

    @Test func aPartlyCoveredQuestionSaysWhatIsMissing() async throws {
        let run = try await AnswerRun(Self.engine, "How do I bake bread with a stream of water?")
        #expect(run.text.hasPrefix("The corpus only partly covers this"))
        #expect(run.text.contains("bread"))
        #expect(run.events.contains { if case .reflectionComplete(_, false) = $0 { true } else { false } })
    }

    @Test func aFollowUpUsesThePreviousQuestion() async throws {
        let followUp = "and how does it retry?"
        let alone = try await AnswerRun(Self.engine, followUp)
        let inContext = try await AnswerRun(
            Self.engine, followUp,
            history: [ChatTurn(role: "user", content: Self.sample), ChatTurn(role: "assistant", content: "…")])
        #expect(alone.plannedQueries == [followUp])
        let query = try #require(inContext.plannedQueries.first)
        for word in ["retry", "resume", "interrupted"] { #expect(query.contains(word), "\(query)") }
        #expect(query.hasPrefix("retry"))
        #expect(inContext.sources?.first?.url.contains("resume.md") == true)
        #expect(alone.sources?.first?.url.contains("resume.md") == false)
    }

    @Test func aMultiPartQuestionGoesDeepWithOneSearchPerPart() async throws {
        let run = try await AnswerRun(Self.engine, "How does SSE compare with WebSockets?")
        #expect(run.tier == "deep")
        #expect(run.plannedQueries == ["How does SSE compare with WebSockets?", "How does SSE", "WebSockets"])
        let quick = try await AnswerRun(Self.engine, "What is BM25?")
        #expect(quick.tier == "quick")
        #expect(quick.plannedQueries.count == 1)
    }

    @Test func completionReportsTimingsCountsAndFollowUps() async throws {
        let run = try await AnswerRun(Self.engine, Self.sample)
        let completion = try #require(run.completion)
        let metadata = completion.metadata
        #expect(metadata["engine"]?.stringValue == CorpusEngine.name)
        #expect(metadata["documents"]?.intValue == Self.corpus.documents.count)
        #expect(metadata["passages"]?.intValue == Self.corpus.passageCount)
        #expect((metadata["hits"]?.intValue ?? 0) > 0)
        for key in ["planning_ms", "search_ms", "synthesis_ms", "total_ms"] {
            #expect((metadata[key]?.doubleValue ?? -1) >= 0, "\(key)")
        }
        #expect((2...3).contains(completion.followUps.count))
        #expect(Set(completion.followUps).count == completion.followUps.count)
    }
}

extension CorpusEngineTests {
    /// `(n, sentence)` for each sentence that ends with a citation `[n]`, without the marker.
    static func citedSentences(in text: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        // The first line is the lead, which names sources and quotes nothing.
        for line in text.split(separator: "\n").dropFirst() {
            let body = line.hasPrefix("- ") ? line.dropFirst(2) : line[...]
            for sentence in SentenceSplitter.sentences(in: String(body)) {
                guard let open = sentence.lastIndex(of: "["), let close = sentence.lastIndex(of: "]"),
                    let number = Int(sentence[sentence.index(after: open)..<close])
                else { continue }
                var quoted = String(sentence[..<open]).trimmingCharacters(in: .whitespaces)
                quoted += String(sentence[sentence.index(after: close)...])
                result.append((number, quoted.replacingOccurrences(of: "**", with: "")))
            }
        }
        return result
    }
}
