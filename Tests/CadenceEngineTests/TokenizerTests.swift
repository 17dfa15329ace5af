import Testing

@testable import CadenceEngine

@Suite struct TokenizerTests {
    @Test func lowercasesAndSplitsOnNonAlphanumerics() {
        #expect(
            Tokenizer.words(in: "Last-Event-ID, UTF-8! (retry: 3000ms)") == [
                "last", "event", "id", "utf", "8", "retry", "3000ms",
            ])
    }

    @Test func keepsLettersOfAnyScript() {
        #expect(Tokenizer.words(in: "Café résumé, naïve Ω-Wert") == ["café", "résumé", "naïve", "ω", "wert"])
    }

    @Test func removesStopWordsAndSingleLetters() {
        #expect(Tokenizer.stems(in: "How does the client do it?") == ["client"])
        #expect(Tokenizer.stems(in: "Cadence's decoder") == ["cadenc", "decoder"])
        #expect(Tokenizer.stems(in: "What is it and why?").isEmpty)
        // Single digits carry meaning ("UTF-8"); single letters do not.
        #expect(Tokenizer.stems(in: "UTF-8 a b") == ["utf", "8"])
    }

    @Test(arguments: [
        ["stream", "streams", "streaming", "streamed"],
        ["retry", "retries", "retried", "retrying"],
        ["resume", "resumes", "resumed", "resuming"],
        ["cache", "caches", "cached", "caching"],
        ["stop", "stops", "stopped", "stopping"],
        ["event", "events"],
    ])
    func mapsTheFormsOfAWordToOneStem(forms: [String]) {
        let stems = Set(forms.map(Tokenizer.stem))
        #expect(stems.count == 1, "\(forms) → \(stems)")
    }

    @Test(arguments: [
        ("class", "class"), ("status", "status"), ("analysis", "analysis"), ("thing", "thing"),
        ("string", "string"), ("need", "need"), ("id", "id"), ("429", "429"), ("http2", "http2"),
    ])
    func leavesWordsWithoutSuffixesAlone(word: String, stem: String) {
        #expect(Tokenizer.stem(word) == stem)
    }

    @Test func keepsDistinctWordsDistinct() {
        #expect(Tokenizer.stem("stream") != Tokenizer.stem("streak"))
        #expect(Tokenizer.stem("retry") != Tokenizer.stem("return"))
    }
}
