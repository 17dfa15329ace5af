import Testing

@testable import CadenceEngine

/// The extractor's work grows with the page and nothing else: it is counted (bytes looked at and
/// tokens handled), not timed. Each unit is a way markup could make a tree-building or
/// search-ahead reader quadratic: elements never closed, end tags that close nothing, openers whose
/// closers never come, deep lists, nested tables.
@Suite struct HTMLTextExtractorWorkTests {
    static let units = [
        "<div>", "</div>", "<p>x", "<ul><li>x", "<ol><li>", "<table><tr><td>x", "</td></tr>", "<!--", "<!-- x -->",
        "<script>", "</script", "<a href='", "<a b=c d=e f=g>", "&amp", "&#x", "&notin", "<svg>", "<svg/>", "</svg>",
        "<nav>", "<title>", "<", "</", "<!", "<h1>", "<pre>\n", "a ", "<li>", "<td>",
    ]

    static func work(_ unit: String, bytes size: Int) -> Int {
        let html = Array(String(repeating: unit, count: size / unit.utf8.count).utf8)
        return HTMLTextExtractor().extractCountingWork(html, charset: "utf-8").work
    }

    @Test(arguments: units)
    func workGrowsLinearly(_ unit: String) {
        let size = 20_000
        let single = Self.work(unit, bytes: size)
        let double = Self.work(unit, bytes: 2 * size)
        #expect(single <= 8 * size, "work per byte \(Double(single) / Double(size))")
        #expect(Double(double) / Double(single) <= 2.2, "work \(single), then \(double) for twice the input")
    }

    /// A 5 MB page of real shape (layout, scripts, paragraphs, lists and tables) is read whole, in
    /// work proportional to its size.
    @Test func aFiveMegabytePage() {
        var html = "<html><head><title>Big</title><script>var x = '<p>';</script></head><body><nav>menu</nav><main>"
        var section = 0
        while html.utf8.count < 5 << 20 {
            section += 1
            html += "<h2>Section \(section)</h2><p>Some text &amp; more text, with <a href='/x'>a link</a>.</p>"
            html += "<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table>"
            html += "<script>track(\(section))</script><!-- comment -->"
        }
        html += "<p>The last paragraph.</p></main></body></html>"
        let bytes = Array(html.utf8)
        let (page, work) = HTMLTextExtractor().extractCountingWork(bytes, charset: nil)
        #expect(page.title == "Big")
        #expect(page.text.hasPrefix("## Section 1\n\nSome text & more text, with a link.\n\n- one\n- two\n\n| a | b |"))
        #expect(page.text.hasSuffix("The last paragraph."))
        #expect(!page.text.contains("track(") && !page.text.contains("menu"))
        #expect(work <= 4 * bytes.count, "work per byte \(Double(work) / Double(bytes.count))")
    }
}
