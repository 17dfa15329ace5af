import Testing

@testable import CadenceMarkdown

/// Documents on which the differential fuzz target (`Fuzz/differential`) found Cadence, cmark-gfm and
/// markdown-it-py apart, each pinned to the HTML the triage table (`Fuzz/differential/TRIAGE.md`) argues
/// for: streamed at every chunk size, the tree is the one-shot tree, so the HTML holds for every chunking.
@Suite struct ReferenceDifferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let markdown: String
        let html: String
        /// Why this output: what the spec says, and which reference differs.
        let why: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "definition after an HTML block keeps the list tight",
            markdown: "+ <!-- c --> sequence\n   [1]: https://ref.example/6 \"title\"\n+ [x] `*em*`\n",
            html: """
                <ul>
                <li>
                <!-- c --> sequence
                </li>
                <li><input type="checkbox" checked="" disabled="" /> <code>*em*</code></li>
                </ul>

                """,
            why: "No blank line anywhere: tight (spec 5.3). cmark-gfm and markdown-it-py agree."),
        Case(
            name: "an item of definitions only ends on its last definition",
            markdown: "- [a]: /x\n  [b]: /y\n- c\n",
            html: "<ul>\n<li></li>\n<li>c</li>\n</ul>\n",
            why: "No blank line anywhere: tight. cmark-gfm and markdown-it-py agree."),
        Case(
            name: "definition between two blocks of an item keeps the list tight",
            markdown: "- <!-- -->\n  [x]: /u\n  # h\n- b\n",
            html: "<ul>\n<li>\n<!-- -->\n<h1>h</h1>\n</li>\n<li>b</li>\n</ul>\n",
            why: "No blank line anywhere: tight. cmark-gfm and markdown-it-py agree."),
        Case(
            name: "a blank line after a definition in an item makes the list loose",
            markdown: "- <!-- -->\n  [x]: /u\n\n  # h\n- b\n",
            html: "<ul>\n<li>\n<!-- -->\n<h1>h</h1>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n",
            why: """
                A link reference definition is a leaf block (spec 4.7), and a blank line between two blocks of an item \
                makes the list loose (spec 5.3): markdown-it-py agrees. cmark-gfm renders it tight, because it drops \
                the removed paragraph's blank-line flag with the paragraph.
                """),
        Case(
            name: "a lone pipe heads no table",
            markdown: "|\n|-\n",
            html: "<p>|\n|-</p>\n",
            why: "A lone pipe is a row of no cells, fewer than the delimiter row's one (GFM spec 4.10): cmark-gfm and markdown-it-py agree."),
        Case(
            name: "a lone pipe in a quote heads no table",
            markdown: ">|\n>-|\n",
            html: "<blockquote>\n<p>|\n-|</p>\n</blockquote>\n",
            why: "As above, inside a block quote."),
        Case(
            name: "a closing pre tag alone is a paragraph",
            markdown: "</pre>\n",
            html: "<p></pre></p>\n",
            why: """
                HTML block start condition 7 takes a complete open or closing tag \"with any tag name other than \
                pre, script, style\" (CommonMark 4.6), and `</pre>` meets no other start condition: a paragraph of \
                raw inline HTML. cmark-gfm and markdown-it-py both start an HTML block.
                """),
        Case(
            name: "a task item in a block quote has its checkbox",
            markdown: "> - [x] a\n",
            html: "<blockquote>\n<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> a</li>\n</ul>\n</blockquote>\n",
            why: """
                A task list item is a list item whose paragraph starts with the marker (GFM spec 5.3), wherever the \
                list is; GitHub draws the box in a quote, as markdown-it-py does. cmark-gfm 0.29's extension does not.
                """),
        Case(
            name: "a task item first in another item has its checkbox",
            markdown: "- * [X] u\n",
            html: "<ul>\n<li>\n<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> u</li>\n</ul>\n</li>\n</ul>\n",
            why: "As above: markdown-it-py draws it, cmark-gfm 0.29 leaves `[X]` as text."),
        Case(
            name: "a definition after a task marker is text",
            markdown: "- [x] [1]: /x\n",
            html: "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> [1]: /x</li>\n</ul>\n",
            why: """
                The item's paragraph is `[x] [1]: /x`, which does not start with a definition (CommonMark 4.7); the \
                marker is then read off its first inline (GFM 5.3). markdown-it-py agrees; cmark-gfm strips the \
                marker before it looks for definitions and drops the text.
                """),
        Case(
            name: "an unbalanced parenthesis is no link destination",
            markdown: "[1]:(\n- [x] a\n",
            html: "<p>[1]:(</p>\n<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> a</li>\n</ul>\n",
            why: """
                A destination holds parentheses only in balanced pairs (CommonMark 6.3), so `[1]:(` defines nothing \
                and stays a paragraph: markdown-it-py agrees; cmark-gfm drops the line.
                """),
        Case(
            name: "a lazy definition line is a definition",
            markdown: "+ [1]:'\n [a]:h\nq\n",
            html: "<ul>\n<li>q</li>\n</ul>\n",
            why: """
                The paragraph's raw content drops each line's initial whitespace (CommonMark 4.8), so ` [a]:h` is a \
                second definition and `q` the text. cmark-gfm keeps the space and the line; markdown-it-py ends the \
                item at the definition. Neither matches the spec.
                """),
        Case(
            name: "a blank line after a thematic break in an item makes the list loose",
            markdown: "5) a\n   * * *\n\n6) b\n",
            html: "<ol start=\"5\">\n<li>\n<p>a</p>\n<hr />\n</li>\n<li>\n<p>b</p>\n</li>\n</ol>\n",
            why: """
                Items separated by a blank line make a loose list (CommonMark 5.3): markdown-it-py agrees. cmark-gfm \
                does not count a blank line that follows a thematic break, and renders it tight.
                """),
        Case(
            name: "a blank line after indented code in an item makes the list loose",
            markdown: "1)     a\n       y\n\n   b\n",
            html: "<ol>\n<li>\n<pre><code>a\ny\n</code></pre>\n<p>b</p>\n</li>\n</ol>\n",
            why: "A blank line between two blocks of an item (CommonMark 5.3): cmark-gfm and markdown-it-py agree."),
        Case(
            name: "indented code ending an item before a blank line and the next item",
            markdown: "-     a\n\n\n- b\n",
            html: "<ul>\n<li>\n<pre><code>a\n</code></pre>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n",
            why: "Items separated by blank lines make a loose list (CommonMark 5.3)."),
        Case(
            name: "a task marker alone before a blank line and more of the item is text",
            markdown: "+ * [x]\t\n\n    -\n",
            html: "<ul>\n<li>\n<ul>\n<li>\n<p>[x]</p>\n<ul>\n<li></li>\n</ul>\n</li>\n</ul>\n</li>\n</ul>\n",
            why: """
                The item's first paragraph is `[x]` (its final whitespace is no part of it, CommonMark 4.8), with no \
                whitespace after the marker, so no task item (GFM spec 5.3); the item goes on after the blank line, \
                so it is loose. markdown-it-py agrees; so does cmark-gfm here, which draws no box in a first nested list.
                """),
        Case(
            name: "a task marker alone before a blank line and a paragraph of the item is text",
            markdown: "1. [x]\t\n\n   b\n",
            html: "<ol>\n<li>\n<p>[x]</p>\n<p>b</p>\n</li>\n</ol>\n",
            why: """
                As above: markdown-it-py agrees. cmark-gfm consumes the marker as if it began the item, leaving \
                the item's first line blank, and ends the item at the blank line (CommonMark 5.2), moving `b` out \
                of the list, although it is indented into the item.
                """),
        Case(
            name: "a task marker alone before a blank line and a definition of the item is text",
            markdown: "- [x]\t\n\n  [y]:u\n- b\n",
            html: "<ul>\n<li>\n<p>[x]</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n",
            why: """
                A definition is a block of the item (CommonMark 4.7), after a blank line: the list is loose and the \
                marker, the whole of its paragraph, is text, as before any other block. markdown-it-py agrees; \
                cmark-gfm draws a box and, losing the definition's blank line, ends the list.
                """),
        Case(
            name: "a task marker alone before a blank line and its own label's definition is a link",
            markdown: "- [x]\t\n\n  [x]:u\n",
            html: "<ul>\n<li>\n<p><a href=\"u\">x</a></p>\n</li>\n</ul>\n",
            why: "As above; `[x]` is then a shortcut reference link (markdown-it-py agrees, cmark-gfm draws a box)."),
        Case(
            name: "a task marker alone that ends its item keeps its checkbox",
            markdown: "- [ ] \n\n- b\n",
            html: "<ul>\n<li><input type=\"checkbox\" disabled=\"\" /> </li>\n<li>\n<p>b</p>\n</li>\n</ul>\n",
            why: """
                An empty task item: cmark-gfm, which GitHub runs, draws the box, and nothing of the item follows \
                the blank line for the marker to be text of. markdown-it-py requires text after the marker.
                """),
        Case(
            name: "a lazy header line's indentation is no cell",
            markdown: "> a\n |||\n> -|-\n",
            html: "<blockquote>\n<p>a</p>\n<table>\n<thead>\n<tr>\n<th></th>\n<th></th>\n</tr>\n</thead>\n</table>\n</blockquote>\n",
            why: """
                The paragraph's raw content drops each line's initial whitespace (CommonMark 4.8), so the header \
                row is `|||`, two cells like the delimiter row (GFM spec 4.10). cmark-gfm heads a table with a lazy \
                line (`> a⏎|||⏎> -|-`), but keeps a lazy line's indentation and counts it as a third cell; \
                markdown-it-py heads no table with a lazy line at all.
                """),
        Case(
            name: "a lazy header line's indentation makes no extra cell",
            markdown: "> a\n |||\n> -|-|-\n",
            html: "<blockquote>\n<p>a\n|||\n-|-|-</p>\n</blockquote>\n",
            why: "As above: two header cells against three delimiter cells is no table; cmark-gfm counts three."),
        Case(
            name: "an underline after a definition is a thematic break",
            markdown: "3. e\n\n   [1]:u\n   ---\n",
            html: "<ol start=\"3\">\n<li>\n<p>e</p>\n<hr />\n</li>\n</ol>\n",
            why: """
                The definition leaves no paragraph content to underline (CommonMark 4.3, 4.7), so `---` is a \
                thematic break: markdown-it-py agrees. cmark-gfm 0.29 writes the underline as a paragraph `---`.
                """),
        Case(
            name: "a task marker before a heading's underline is the heading's text",
            markdown: "* [x]\t\n* [x] \n  =\n",
            html: "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> </li>\n<li>\n<h1>[x]</h1>\n</li>\n</ul>\n",
            why: """
                The second item's first block is the setext heading `[x]`, no paragraph, so no task item (GFM spec \
                5.3): markdown-it-py agrees. cmark-gfm takes the marker off before it reads the item's blocks and \
                draws a box before the text `=`.
                """),
        Case(
            name: "a table in an item leaves its list tight",
            markdown: "2. ||||\n   -|-|-\n3. [\n",
            html: """
                <ol start="2">
                <li>
                <table>
                <thead>
                <tr>
                <th></th>
                <th></th>
                <th></th>
                </tr>
                </thead>
                </table>
                </li>
                <li>[</li>
                </ol>

                """,
            why: "No blank line anywhere: tight (CommonMark 5.3). markdown-it-py agrees; cmark-gfm renders the list loose."),
        Case(
            name: "a code span after an unmatched longer backtick run",
            markdown: "`` `a` `b`\n",
            html: "<p>`` <code>a</code> <code>b</code></p>\n",
            why: """
                A code span begins and ends with backtick strings of equal length (CommonMark 6.1): `` closes \
                nowhere and is text, then `a` and `b` are spans. markdown-it-py agrees; cmark-gfm finds `a` and \
                leaves `b` as text.
                """),
        Case(
            name: "a lazy line's indentation is no part of a code span",
            markdown: ">* x```\n    > ```\n",
            html: "<blockquote>\n<ul>\n<li>x<code>&gt;</code></li>\n</ul>\n</blockquote>\n",
            why: """
                Four spaces before `>` start no quote line, so the line is a lazy continuation of the item's \
                paragraph, whose raw content drops each line's initial whitespace (CommonMark 4.8): the span holds \
                `⏎> `, which is `>`. cmark-gfm, which GitHub runs, keeps the lazy line's indentation (` >`); \
                markdown-it-py ends the paragraph.
                """),
        Case(
            name: "a lazy line's indentation is no part of an HTML comment",
            markdown: ">h<!--\n    >-->\n",
            html: "<blockquote>\n<p>h<!--\n>--></p>\n</blockquote>\n",
            why: "As above, in raw inline HTML: cmark-gfm keeps `    >-->`; markdown-it-py reads `>` as the quote's."),
        Case(
            name: "a definition of a label defined before is no table's text",
            markdown: "[two]:1\n\n[two]:3\ny||||\n-|-|-|-\n",
            html: "<table>\n<thead>\n<tr>\n<th>y</th>\n<th></th>\n<th></th>\n<th></th>\n</tr>\n</thead>\n</table>\n",
            why: """
                `[two]:3` is a definition (the first one of a label wins, CommonMark 4.7), removed before the table \
                starts at `y||||`: markdown-it-py agrees. cmark-gfm's table extension keeps it as text, a link `two`.
                """),
        Case(
            name: "a task marker before an aligned header cell is the cell's text",
            markdown: "* [ ] ||||\n    -:|-|-|-\n",
            html: "<ul>\n<li>\n<table>\n<thead>\n<tr>\n<th align=\"right\">[ ]</th>\n"
                + String(repeating: "<th></th>\n", count: 3) + "</tr>\n</thead>\n</table>\n</li>\n</ul>\n",
            why: """
                The item's first block is a table whose header row `[ ] ||||` has four cells like the delimiter \
                row (GFM spec 4.10), no paragraph, so no task item (5.3): markdown-it-py agrees. cmark-gfm takes \
                the marker off first, and `||||` has three cells: a box and a paragraph.
                """),
        Case(
            name: "a task marker after a definition in the item is text",
            markdown: "1) [1]:\"\n\n   [X] <\n",
            html: "<ol>\n<li>\n<p>[X] &lt;</p>\n</li>\n</ol>\n",
            why: """
                A task item's first block is a paragraph that starts with the marker (GFM spec 5.3); here the first \
                is the definition `[1]:"`, as cmark-gfm (and GitHub) read it too, drawing no box; markdown-it-py \
                draws one. A blank line between two blocks of the item makes the list loose (CommonMark 5.3).
                """),
        Case(
            name: "a lazy line after a task marker continues the item's paragraph",
            markdown: "- [x]\t\n|\n",
            html: "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> |</li>\n</ul>\n",
            why: """
                `|` is a lazy continuation line of the item's paragraph `[x]⇥⏎|` (CommonMark 5.1), which starts \
                with the marker and whitespace: a task item. cmark-gfm takes the marker off before the paragraph \
                opens, leaves the item empty and starts a paragraph `|` after the list; markdown-it-py wants a \
                space after the marker.
                """),
        Case(
            name: "an empty task item first in another item has its checkbox",
            markdown: "+ 9. [X] \n",
            html: "<ul>\n<li>\n<ol start=\"9\">\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> </li>\n</ol>\n</li>\n</ul>\n",
            why: """
                As \"a task marker alone that ends its item keeps its checkbox\", in a first nested list, where \
                cmark-gfm 0.29 draws no box (\"a task item first in another item has its checkbox\").
                """),
        Case(
            name: "a task marker after a definition on the item's first line draws a box",
            markdown: "- [a]:u\n[X] \n",
            html: "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> </li>\n</ul>\n",
            why: """
                The definition is removed from the paragraph's start (CommonMark 4.7); what is left, the item's \
                paragraph, starts with the marker (GFM 5.3 does not say more). cmark-gfm looks for a marker on the \
                item's first line only, so GitHub draws no box; markdown-it-py ends the item at the definition.
                """),
        Case(
            name: "a marker in a quote's lazy line leaves the outer box checked",
            markdown: "* [X] a\n  >e\n      - [ ] b\n",
            html: """
                <ul>
                <li><input type="checkbox" checked="" disabled="" /> a
                <blockquote>
                <p>e
                - [ ] b</p>
                </blockquote>
                </li>
                </ul>

                """,
            why: """
                `      - [ ] b` is a lazy continuation of the quote's paragraph (CommonMark 5.1): text. cmark-gfm \
                gives the outer item's box the lazy marker's state (unchecked); markdown-it-py reads `- [ ] b` as code.
                """),
        Case(
            name: "a lowercase declaration starts an HTML block",
            markdown: "- a\n  <!a\n",
            html: "<ul>\n<li>a\n<!a\n</li>\n</ul>\n",
            why: """
                Start condition 4 is `<!` and an ASCII letter (CommonMark 0.31): markdown-it-py agrees. cmark-gfm \
                0.29 follows spec 0.29 (an uppercase letter) and escapes `<!a` as paragraph text.
                """),
        Case(
            name: "a definition after a blank line in a nested item leaves the outer list tight",
            markdown: "+ * [\n\n    [a]:5\n+ ]\n",
            html: "<ul>\n<li>\n<ul>\n<li>\n<p>[</p>\n</li>\n</ul>\n</li>\n<li>]</li>\n</ul>\n",
            why: """
                The blank line is between two blocks of the nested item (loose, CommonMark 5.3); no blank line \
                separates the outer items, whose first holds one block: tight. markdown-it-py agrees; cmark-gfm \
                makes the nested list tight and the outer one loose.
                """),
    ]

    @Test(arguments: cases)
    func rendersAsTriaged(_ example: Case) {
        let html = HTMLRenderer(tagFilter: true).render(MarkdownParser(options: .gfm).parse(example.markdown))
        #expect(html == example.html, "\(example.why)")
    }

    @Test(arguments: cases)
    func streamedAtEveryChunkSizeEqualsWhole(_ example: Case) {
        for chunkSize in 1...example.markdown.count {
            let problems = ChunkingTests.check(example.markdown, options: .gfm, chunkSize: chunkSize)
            #expect(problems.isEmpty, "chunk size \(chunkSize): \(problems)")
        }
    }
}
