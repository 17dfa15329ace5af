/// A long, realistic, deterministic model answer for the markdown benchmark: headings, paragraphs
/// with emphasis, code spans, links and citations, nested lists, code in several languages,
/// tables, quotes and a sources list.
enum MarkdownAnswerGenerator {
    static let sentences = [
        "Streaming parsers keep **work proportional to the new text**, not to everything received so far",
        "The block structure is decided line by line, so a closed block never has to be looked at again",
        "In practice the *open tail* is small: the last paragraph, an open list item or a code fence",
        "Use `MarkdownDocument.append(_:)` for every chunk and render only the blocks that changed",
        "A table row is final once its newline arrives, which keeps wide tables from flickering",
        "See the [CommonMark spec](https://spec.commonmark.org/0.31.2/) for the precise rules",
        "Latency matters more than throughput on phones, where a re-parse per token is a hot loop",
        "Citations such as these stay attached to the claim they support, even across chunk boundaries",
        "東京とパリで同じ答えを表示しても、幅の広い文字は正しく折り返されます",
        "~~Quadratic re-parsing~~ is the default in most markdown views, and it shows on long answers",
    ]

    static func answer(minimumBytes: Int) -> String {
        var out = "# A long answer about incremental rendering\n\n"
        var section = 0
        while out.utf8.count < minimumBytes {
            section += 1
            out += Self.section(section)
        }
        out += "## Sources\n\n"
        for n in 1...12 { out += "\(n). Source number \(n) — <https://example.com/source/\(n)>\n" }
        return out
    }

    static func sentence(_ i: Int) -> String {
        sentences[i % sentences.count] + " [\(i % 12 + 1)]" + (i % 3 == 0 ? "[\((i + 5) % 12 + 1)]" : "") + "."
    }

    static func paragraph(_ seed: Int, sentences count: Int) -> String {
        (0..<count).map { sentence(seed + $0) }.joined(separator: " ") + "\n\n"
    }

    static func section(_ n: Int) -> String {
        var out = "## Section \(n): \(["Design", "Trade-offs", "Measurements", "Pitfalls"][n % 4])\n\n"
        out += paragraph(n, sentences: 4)
        out += "- First point, with *emphasis* and a `code span` [\(n % 12 + 1)]\n"
        out += "- Second point, which is longer and wraps onto a second line in most\n  terminals, continuing here\n"
        out += "  1. a nested step\n  2. another nested step with **strong** text\n"
        out += "- Third point\n\n"
        switch n % 3 {
        case 0:
            out +=
                "```swift\nfor chunk in stream {\n    document.append(chunk)\n    view.update(document.tail)\n}\n```\n\n"
        case 1:
            out += "```python\ndef tokens(stream):\n    for chunk in stream:\n        yield from chunk.split()\n```\n\n"
        default:
            out += "```sql\nSELECT id, created_at\nFROM answers\nWHERE length(body) > 150000;\n```\n\n"
        }
        out += paragraph(n * 7, sentences: 3)
        if n % 2 == 0 {
            out += "| Chunk size | Appends | Total time |\n|---:|---:|:---|\n"
            for k in 1...4 { out += "| \(k * 4) | \(37_500 / k) | \(k * 13) ms |\n" }
            out += "\n"
        } else {
            out += "> A quote from a source, spanning\n> two lines, with a citation [\(n % 12 + 1)].\n\n"
        }
        out += paragraph(n * 13, sentences: 5)
        return out
    }
}
