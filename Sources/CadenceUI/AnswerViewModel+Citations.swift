public import CadenceCore
public import CadenceMarkdown

extension Source {
    /// The number a source is cited by: its id when numeric (`"2"` for `[2]`), else its position.
    public static func citationNumber(of source: Source, at index: Int) -> Int {
        Int(source.id) ?? index + 1
    }
}

extension CitationDisplay {
    /// The display for an answer with these sources (numbered as they are cited) and these failed
    /// checks (whose `supported` is false).
    public init(sources: [Source], unsupported: [CitationCheck] = []) {
        self.init(
            sources: Set(sources.enumerated().map { Source.citationNumber(of: $0.element, at: $0.offset) }),
            unsupported: Dictionary(unsupported.map { ($0.ordinal, $0.source) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension AnswerViewModel {
    /// The citations whose check failed (empty until the answer completes, or when the server
    /// checks none).
    public var unsupportedCitations: [CitationCheck] {
        CitationCheck.list(in: metadata).filter { !$0.supported }
    }

    /// How this answer's citations are drawn: only the numbers of its sources are citations (in a
    /// chat without sources `[1]` stays text), and the unsupported ones are marked.
    public var citationDisplay: CitationDisplay {
        CitationDisplay(sources: sources, unsupported: unsupportedCitations)
    }
}
