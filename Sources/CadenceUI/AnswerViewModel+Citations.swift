public import CadenceCore
public import CadenceMarkdown

/// A citation whose source may not support the sentence it is attached to, as the server's
/// citation check reported it in the completion's metadata (see docs/protocol.md).
public struct UnsupportedCitation: Sendable, Hashable {
    /// The citation's position among all citation numbers of the answer's text (from 1), and the
    /// source number it cites.
    public var ordinal, source: Int
    /// The claim that was checked.
    public var sentence: String

    public init(ordinal: Int, source: Int, sentence: String) {
        self.ordinal = ordinal
        self.source = source
        self.sentence = sentence
    }

    /// The failed checks listed in completion metadata; malformed entries are skipped.
    public static func list(in metadata: [String: JSONValue]) -> [UnsupportedCitation] {
        (metadata["citations"]?.arrayValue ?? []).compactMap { check in
            guard check["supported"] == .bool(false),
                let ordinal = check["ordinal"]?.doubleValue.flatMap(Int.init(exactly:)),
                let source = check["source"]?.doubleValue.flatMap(Int.init(exactly:))
            else { return nil }
            return UnsupportedCitation(ordinal: ordinal, source: source, sentence: check["sentence"]?.stringValue ?? "")
        }
    }
}

extension Source {
    /// The number a source is cited by: its id when numeric (`"2"` for `[2]`), else its position.
    public static func citationNumber(of source: Source, at index: Int) -> Int {
        Int(source.id) ?? index + 1
    }
}

extension CitationDisplay {
    /// The display for an answer with these sources (numbered as they are cited) and these failed checks.
    public init(sources: [Source], unsupported: [UnsupportedCitation] = []) {
        self.init(
            sources: Set(sources.enumerated().map { Source.citationNumber(of: $0.element, at: $0.offset) }),
            unsupported: Dictionary(unsupported.map { ($0.ordinal, $0.source) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension AnswerViewModel {
    /// The citations whose check failed (empty until the answer completes, or when the server
    /// checks none).
    public var unsupportedCitations: [UnsupportedCitation] {
        UnsupportedCitation.list(in: metadata)
    }

    /// How this answer's citations are drawn: only the numbers of its sources are citations (in a
    /// chat without sources `[1]` stays text), and the unsupported ones are marked.
    public var citationDisplay: CitationDisplay {
        CitationDisplay(sources: sources, unsupported: unsupportedCitations)
    }
}
