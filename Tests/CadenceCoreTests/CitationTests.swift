import CadenceCore
import Testing

/// The `[n]` markers of an answer's text, and the citation checks a research server lists in its
/// completion's metadata.
@Suite("Citations")
struct CitationTests {
    @Test func citationMarkers() {
        #expect(citedSourceIDs(in: "A [1][2], b [2], c [10].") == ["1", "2", "10"])
        #expect(citedSourceIDs(in: "[link](u) [1]: def [x] [] [1234] [") == [])
        #expect(citedSourceIDs(in: "end [3]") == ["3"])
    }

    @Test func aCheckReadsBackAsItWasWritten() {
        let checks = [
            CitationCheck(ordinal: 1, source: 1, sentence: "One", score: 0.9, supported: true),
            CitationCheck(ordinal: 2, source: 2, sentence: "Two", score: 0.12, supported: false),
        ]
        #expect(CitationCheck.list(in: ["citations": .array(checks.map(\.json))]) == checks)
    }

    @Test func malformedChecksAreSkipped() {
        let metadata: [String: JSONValue] = [
            "citations": [
                "not an object", ["ordinal": "two", "source": 1, "supported": false],
                ["ordinal": 1.5, "source": 1, "supported": false], ["source": 1, "supported": false],
                ["ordinal": 4, "source": 1, "supported": "no"], ["ordinal": 3, "source": 1, "supported": false],
            ]
        ]
        #expect(
            CitationCheck.list(in: metadata) == [
                CitationCheck(ordinal: 3, source: 1, sentence: "", score: 0, supported: false)
            ])
        #expect(CitationCheck.list(in: ["citations": "nonsense"]).isEmpty)
        #expect(CitationCheck.list(in: [:]).isEmpty)
    }
}
