import CadenceCore
import Foundation
import Testing

/// A source is stored (the conversation store's `sources` column) as one flat JSON object, the same
/// whether its details live beside its four members or in a ``SourceDetails`` of their own.
@Suite("Source coding")
struct SourceCodingTests {
    @Test("a source with every detail encodes as one flat object and decodes back to itself")
    func flatRoundTrip() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(ResearchProtocolTests.paper)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"arxiv":"2401.01234v2","authors":["Jane Smith","Li Ng"],"doi":"10.1016/S0140-6736(22)01545-8","id":"1","kind":"paper","pmid":"37654321","published":"2023-09-02","snippet":"Most symptoms…","title":"Statins and muscle symptoms","url":"https://pubmed.ncbi.nlm.nih.gov/37654321/","venue":"Lancet"}"#
        )
        #expect(try JSONDecoder().decode(Source.self, from: data) == ResearchProtocolTests.paper)
    }

    @Test("a stored source without details decodes with none, and its details read as its own members")
    func withoutDetails() throws {
        let stored = #"{"id":"2","snippet":"","title":"Resume","url":"cadence://corpus/resume.md"}"#
        var source = try JSONDecoder().decode(Source.self, from: Data(stored.utf8))
        #expect(source.details == SourceDetails())
        source.venue = "Nature"
        #expect(source.details.venue == "Nature")
        #expect(ResearchProtocolTests.paper.year == "2023")
    }
}
