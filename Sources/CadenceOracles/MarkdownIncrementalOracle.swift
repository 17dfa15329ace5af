import CadenceMarkdown

/// Incremental markdown equals a full parse, for any split of the same text.
///
/// The options byte chooses the syntax (Cadence's default, strict CommonMark or GFM). The text is
/// appended in the header's chunks, cut between Unicode scalars (so a CRLF or a grapheme cluster
/// may be cut), reading the open tail after chunks as a streaming view does: after every chunk in
/// ``checkEveryVariant(_:)``, after about 32 evenly spaced ones in ``check(_:)`` (reading the tail
/// after each of hundreds of one-scalar chunks was five sixths of a fuzz run's time). Along the way
/// a committed block never changes and equals the block at its index in the full parse, and the
/// tail, which a read builds from what the last one kept, equals a rebuild from scratch; at the
/// end `MarkdownDocument/finish()` equals `MarkdownParser/parse(_:)` of the whole text, and the
/// tree renders to HTML and ANSI without trapping.
public enum MarkdownIncrementalOracle: FuzzOracle {
    public static let target = "markdown"

    static let syntaxes: [MarkdownOptions] = [.default, .commonMark, .gfm]

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        try check(FuzzInput(data), readsTailEvery: nil)
    }

    public static func checkEveryVariant(_ data: [UInt8]) throws(OracleViolation) {
        try check(FuzzInput(data), readsTailEvery: 1)
    }

    /// Appends the payload in the header's chunks, reading the tail after every `stride`th chunk
    /// (with `nil`, about 32 times in all) and after the last.
    static func check(_ input: FuzzInput, readsTailEvery stride: Int?) throws(OracleViolation) {
        let options = syntaxes[Int(input.options) % syntaxes.count]
        let text = input.text
        let expected = MarkdownParser(options: options).parse(text)
        var document = MarkdownDocument(options: options)
        var committed: [Block] = []
        var offset = 0
        let chunks = input.chunks(of: text.unicodeScalars)
        let stride = stride ?? 1 + chunks.count / 32
        for (index, chunk) in chunks.enumerated() {
            document.append(Substring(chunk))
            offset += chunk.count
            let now = document.committed
            guard now.starts(with: committed) else {
                throw OracleViolation("a committed block changed after scalar \(offset)")
            }
            guard expected.blocks.starts(with: now) else {
                throw OracleViolation("a block committed after scalar \(offset) differs from the full parse")
            }
            committed = now
            if index % stride == stride - 1 || index == chunks.count - 1 {
                guard document.tail == document.freshTail() else {
                    throw OracleViolation("the tail read after scalar \(offset) differs from a rebuild from scratch")
                }
            }
        }
        let final = document.finish()
        try OracleViolation.expect(final, equals: expected, "the incremental tree differs from the full parse")
        _ = HTMLRenderer().render(final)
        _ = ANSIRenderer(width: 1 + Int(input.splitSeed % 100)).render(final)
    }
}
