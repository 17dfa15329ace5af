import CadenceMarkdown

/// Markdown parsing does work linear in its input, whatever the input repeats.
///
/// The payload is cut into a prefix, a unit and a suffix: the split seed's low four bits give the
/// prefix's length, its high four bits the suffix's (each at most what is left). The text is the
/// prefix, the unit repeated, then the suffix, parsed once with `k` repetitions and once with `2k`
/// (`k` at least 32, enough for about 4 KB, and a multiple of 6). The work is the parser's own count of the steps it
/// took and the bytes its scanners looked at (`MarkdownDocument.work`), not a time: at twice the
/// size it may be at most ``maximumRatio`` times as much. Linear work gives a ratio under 2, and one
/// scan to the end of the text per repetition (an unclosed `<!--` repeated) gives nearly 4.
///
/// The options byte chooses the syntax (as ``MarkdownIncrementalOracle`` does) and, in its high
/// bit, whether the text is appended whole or in 64-byte chunks (the incremental path, without tail
/// reads: a read re-parses the open paragraph after its last stable point, see `MarkdownDocument.tail`).
/// The prefix, the repetitions and the suffix are chunked each from its own start, so the chunks
/// fall alike at `k` and `2k` where the text is not repeated: a definition in the suffix that
/// arrives a chunk after the paragraph it completes makes that paragraph be built twice (at most
/// twice, so linear), and where the boundary fell must not differ between the two sizes.
public enum MarkdownWorkOracle: FuzzOracle {
    public static let target = "markdown-work"

    /// The most the work may grow when the input doubles.
    public static let maximumRatio = 2.5

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        let payload = input.payload[...]
        let prefix = payload.prefix(Int(input.splitSeed & 0x0F))
        let rest = payload.dropFirst(prefix.count)
        let suffix = rest.suffix(Int(input.splitSeed >> 4))
        let unit = rest.dropLast(suffix.count)
        guard !unit.isEmpty else { return }
        let syntaxes = MarkdownIncrementalOracle.syntaxes
        let options = syntaxes[Int(input.options & 0x7F) % syntaxes.count]
        let chunked = input.options & 0x80 != 0
        // A multiple of 6, so that both texts end in the same state of any toggle the unit flips
        // with period 2 or 3: with an odd count, a unit that opens or closes a code fence left the
        // suffix's link definition inside the fence at `k` and outside at `2k`, where it makes every
        // earlier block be built again once (linear, yet a ratio over 3).
        let repetitions = (max(32, 4096 / unit.count) + 5) / 6 * 6
        func parts(_ count: Int) -> [[UInt8]] { [Array(prefix), Array(repeatElement(unit, count: count).joined()), Array(suffix)] }
        let single = work(parts(repetitions), options, chunked)
        let double = work(parts(2 * repetitions), options, chunked)
        guard Double(double) <= maximumRatio * Double(single) else {
            throw OracleViolation(
                "the parsing work grew faster than the input",
                "\(single) steps for \(repetitions) repetitions, \(double) for \(2 * repetitions)")
        }
    }

    /// The parser's work on the text of `parts` (each decoded alone, invalid UTF-8 replaced),
    /// appended whole or each part in chunks of about 64 bytes cut between scalars, then finished.
    static func work(_ parts: [[UInt8]], _ options: MarkdownOptions, _ chunked: Bool) -> Int {
        let texts = parts.map { String(decoding: $0, as: UTF8.self) }
        var document = MarkdownDocument(options: options)
        if chunked {
            for text in texts {
                var chunk = ""
                for scalar in text.unicodeScalars {
                    chunk.unicodeScalars.append(scalar)
                    if chunk.utf8.count >= 64 {
                        document.append(chunk)
                        chunk = ""
                    }
                }
                if !chunk.isEmpty { document.append(chunk) }
            }
        } else {
            document.append(texts.joined())
        }
        _ = document.finish()
        return document.work
    }
}
