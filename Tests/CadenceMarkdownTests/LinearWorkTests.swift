import Testing

@testable import CadenceMarkdown

/// Openers that never close, repeated: each used to be searched for its closer to the end of the
/// paragraph, once per opener, which is quadratic (an answer of 40 KB of `a <!-- ` froze the
/// full-screen chat for 87 s). The work is counted (`MarkdownDocument.work`, which counts the bytes
/// the scanners look at), not timed: at twice the size it stays under 2.5 times as much, as the
/// `markdown-work` fuzz target checks for any repeated unit (`MarkdownWorkOracle`).
@Suite struct LinearWorkTests {
    static let units = [
        // An HTML comment, processing instruction, CDATA section and declaration, never closed.
        "a <!-- ", "a <?", "a <![CDATA[", "a <!A",
        // GFM autolinks: an email scanned to the end of the run per `@`, a `www.` domain per `_www.`.
        "a@", "_www.a",
        // A link whose text holds no delimiter walked the whole delimiter stack below it (found by
        // the `markdown-work` fuzz target in its first second).
        "[b](c)* ", "*a* [b](c) ", "*foo [bar](/url)*\n",
        // A `**` closer searched below an opener-bottom mark that an earlier match had removed from
        // the stack, so it walked to the start: `*` between punctuation matches the previous line's,
        // and the `**` after it can match neither (the fuzz target's bytes: NUL and an invalid
        // sequence read as U+FFFD).
        "~*\0\0\0\0\u{FFFD}\u{4}\0\u{E}**\n",
        // Link destinations in one run of bytes: each `](` read on to 32 levels of parentheses
        // further, which is 32 times the run (the fuzz target's had U+FFFD where `b` is).
        "[a](b", "[link](fo" + String(repeating: "\u{FFFD}", count: 93) + "ob\u{FFFD}",
    ]

    static func work(_ text: String) -> Int {
        var document = MarkdownDocument()
        document.append(text)
        _ = document.finish()
        return document.work
    }

    @Test(arguments: units)
    func workGrowsLinearly(_ unit: String) {
        let size = 20_000
        let single = Self.work(String(repeating: unit, count: size / unit.utf8.count))
        let double = Self.work(String(repeating: unit, count: 2 * size / unit.utf8.count))
        #expect(single <= 12 * size, "work per byte \(Double(single) / Double(size))")
        #expect(Double(double) / Double(single) <= 2.5, "work \(single), then \(double) for twice the input")
    }

    /// The memo of missing closers holds for one parse only: streamed, the same text parses as it
    /// does whole, whatever the chunks, with the tail read after each chunk equal to a rebuild, and a
    /// closer that arrives last still closes the opener.
    @Test(arguments: units)
    func streamingEqualsTheWholeParse(_ unit: String) {
        let repeated = String(repeating: unit, count: 300 / unit.utf8.count)
        for text in [repeated, repeated + " -->?>]]>>", repeated + "\n\nb " + repeated] {
            let expected = MarkdownParser().parse(text)
            for size in [1, 3, 7, 64] {
                var document = MarkdownDocument()
                var chunk = ""
                for character in text {
                    chunk.append(character)
                    guard chunk.utf8.count >= size else { continue }
                    document.append(chunk)
                    chunk = ""
                    #expect(document.tail == document.freshTail(), "chunks of \(size)")
                }
                document.append(chunk)
                #expect(document.finish() == expected, "chunks of \(size)")
            }
        }
    }

    /// Read once per run, link destinations end where scanning each one alone ends them: for every
    /// start in texts of parentheses, escapes, spaces and `](`, in the order a parse asks.
    @Test func destinationRunsAgreeWithTheScan() {
        let pieces = ["(", ")", "\\", "\\(", "a", "](", "<", " ", "\u{1}"]
        // Nested 31 to 35 levels deep: around the limit, from every start.
        var texts = (31...35).map {
            Array(("a" + String(repeating: "(", count: $0) + String(repeating: ")", count: $0 + 1) + "b").utf8)
        }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in [5, 20, 80, 400] {
            for _ in 0..<200 {
                // Half the texts are one run (no space or control character) that opens 40 levels
                // first: the scans from its start fail at the 33rd.
                let deep = seed & 1 == 0
                var text: [UInt8] = deep ? Array(repeating: UInt8(ascii: "("), count: 40) : []
                for _ in 0..<length {
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    text += Array(pieces[Int(seed >> 33) % (deep ? 7 : pieces.count)].utf8)
                }
                texts.append(text)
            }
        }
        for text in texts {
            var run = LinkDestinationRun()
            var memoWork = 0
            var scanWork = 0
            for start in 0...text.count {
                let memo = run.scan(text, start, work: &memoWork)
                let scan = LinkSyntax.scanDestination(text, start, work: &scanWork)
                #expect(memo?.url == scan?.url && memo?.end == scan?.end, "\(String(decoding: text, as: UTF8.self)) at \(start)")
            }
        }
    }

    @Test func aLateCloserStillCloses() {
        let text = String(repeating: "a <!-- ", count: 50) + "-->"
        guard case .paragraph(let inlines)? = MarkdownParser().parse(text).blocks.first else {
            Issue.record("not a paragraph")
            return
        }
        // The first opener takes everything up to the closer, as CommonMark says.
        #expect(inlines.contains(.html(String(text.dropFirst(2)))))
    }
}
