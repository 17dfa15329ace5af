/// A searchable piece of a document: a few consecutive blocks of one section, about a
/// paragraph or two long. The corpus ranks passages, not whole documents, so that a long
/// document's one relevant section can win.
struct Passage: Sendable, Hashable {
    var documentIndex: Int
    var heading: String?
    var anchor: String?
    var blocks: [TextBlock]

    /// The blocks' text, separated by blank lines.
    var text: String { blocks.map(\.text).joined(separator: "\n\n") }

    /// Passages aim for this many words, never cutting a block in two.
    static let targetWords = 110
    /// A passage under this many words is merged into the one before it in the same section.
    static let minimumWords = 35

    /// Splits a document into passages section by section.
    static func split(_ document: Document, documentIndex: Int) -> [Passage] {
        var passages: [Passage] = []
        for section in MarkdownBlocks.sections(in: document.text) {
            var current: [TextBlock] = []
            var words = 0
            var sectionPassages: [Passage] = []
            func cut() {
                guard !current.isEmpty else { return }
                let passage = Passage(
                    documentIndex: documentIndex, heading: section.heading, anchor: section.anchor, blocks: current)
                if words < minimumWords, let previous = sectionPassages.popLast() {
                    sectionPassages.append(
                        Passage(
                            documentIndex: documentIndex, heading: section.heading, anchor: section.anchor,
                            blocks: previous.blocks + current))
                } else {
                    sectionPassages.append(passage)
                }
                current = []
                words = 0
            }
            for block in section.blocks {
                let blockWords = block.text.wordCount
                if words > 0 && words + blockWords > targetWords * 3 / 2 { cut() }
                current.append(block)
                words += blockWords
                if words >= targetWords { cut() }
            }
            cut()
            passages += sectionPassages
        }
        return passages
    }

    /// The terms the index stores for this passage: its document's title, its heading and its text.
    func indexedTerms(title: String) -> [Term] {
        var terms = Tokenizer.terms(in: title)
        if let heading, heading != title { terms += Tokenizer.terms(in: heading) }
        for block in blocks { terms += Tokenizer.terms(in: block.text) }
        return terms
    }
}
