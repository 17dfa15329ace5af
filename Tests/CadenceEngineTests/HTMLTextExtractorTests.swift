import Foundation
import Testing

@testable import CadenceEngine

/// The page text extractor on pages shaped like real ones: layout around the content, inline
/// scripts and styles, entities, tables and lists, other charsets, broken markup.
@Suite struct HTMLTextExtractorTests {
    let extractor = HTMLTextExtractor()

    /// A news-article layout: the article survives, everything around it goes.
    @Test func keepsTheArticleAndDropsTheLayout() {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head>
              <meta charset="utf-8"><title>Leeks &amp; Potatoes | The Daily Soup</title>
              <style>body { font: 12px serif } .ad::before { content: "<p>not text</p>" }</style>
              <script>window.dataLayer = []; if (a < b && c > d) { document.write("<div>ad</div>") }</script>
              <script type="application/ld+json">{"headline": "</p>not this"}</script>
            </head>
            <body class="article">
              <header><a href="/">The Daily Soup</a><nav><ul><li><a href="/news">News</a></li><li>Recipes</li></ul></nav></header>
              <div id="wrap"><div class="col"><main>
                <article>
                  <h1>Leek and potato soup</h1>
                  <p class="byline">By <a href="/a">A. Cook</a>, 3 May</p>
                  <!-- ad slot: <p>sponsored</p> -->
                  <p>Soften the leeks   in butter,
                     then add the potatoes.</p>
                  <noscript><img src="pixel.gif">Enable JavaScript</noscript>
                  <h2>You need</h2>
                  <ul><li>3 leeks</li><li>2 potatoes<ul><li>floury</li></ul></li></ul>
                  <ol><li>Chop</li><li>Simmer</li></ol>
                  <svg viewBox="0 0 10 10"><title>icon</title><path d="M0 0"/><text>svg text</text></svg>
                  <template><p>template text</p></template>
                  <form action="/subscribe"><label>Email</label><input name="e"><button>Subscribe</button>
                    <select><option>Daily</option></select><textarea>type here</textarea></form>
                </article>
                <aside><h3>Related</h3><p>Ten soups</p></aside>
              </main></div></div>
              <footer><p>&copy; 2026 The Daily Soup</p></footer>
              <script>trackPageView()</script>
            </body></html>
            """
        let page = extractor.extract(html)
        #expect(page.title == "Leeks & Potatoes | The Daily Soup")
        #expect(
            page.text == """
                # Leek and potato soup

                By A. Cook, 3 May

                Soften the leeks in butter, then add the potatoes.

                ## You need

                - 3 leeks
                - 2 potatoes
                  - floury

                1. Chop
                2. Simmer
                """)
    }

    @Test func tablesBecomeRows() {
        let html = """
            <table><caption>Prices</caption>
            <thead><tr><th>Item</th><th>Price</th></tr></thead>
            <tbody><tr><td>Leek</td><td>1 &euro;</td></tr>
            <tr><td>A | B</td><td><p>2</p><p>3</p></td></tr></tbody></table><p>After</p>
            """
        #expect(
            extractor.extract(html).text == """
                Prices
                | Item | Price |
                | --- | --- |
                | Leek | 1 € |
                | A \\| B | 2 3 |

                After
                """)
    }

    @Test func preformattedTextKeepsItsLines() {
        let text = extractor.extract("<p>Run:</p><pre>swift build\n  swift test</pre><p>done</p>").text
        #expect(text == "Run:\n\nswift build\n  swift test\n\ndone")
    }

    @Test(arguments: [
        ("a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39;", "a & b <c> \"d\" 'e'"),
        ("&eacute;t&eacute; &#233;&#xE9;&#XE9;", "été ééé"),
        ("&amp &copy 2026 &nbsp;x &notin; &notit;", "& © 2026 x ∉ ¬it;"),
        ("&#150; &#x80; &#0; &#xD800; &#1114112;", "– € \u{FFFD} \u{FFFD} \u{FFFD}"),
        ("&unknown; & &#; &#x; AT&T", "&unknown; & &#; &#x; AT&T"),
    ])
    func entities(html: String, text: String) {
        #expect(extractor.extract("<p>\(html)</p>").text == text)
    }

    /// Model text extracted from pages is untrusted: no control characters (a terminal escape, a
    /// NUL, C1 controls) and no bidirectional overrides, however they were written.
    @Test func controlCharactersAreRemoved() {
        let html = "<title>T\u{1B}[2J</title><p>a\u{1B}[31mb &#27;[0m c\u{0}d &#x202E;evil&#x202C; e\u{85}f &#x9B;</p>"
        let page = extractor.extract(html)
        #expect(page.title == "T[2J")
        #expect(page.text == "a[31mb [0m cd evil ef ›")
    }

    @Test func brokenMarkupIsReadAsABrowserWould() {
        #expect(extractor.extract("<p>a < b and c<d</p>").text == "a < b and c")
        #expect(extractor.extract("<div><p>one<p>two</span></div></div></ul><li>three").text == "one\n\ntwo\n- three")
        #expect(extractor.extract("<p>kept</p><!-- never closed <p>gone</p>").text == "kept")
        #expect(extractor.extract("<p>kept</p><script>gone(); var s = '</scr' + 'ipt>'").text == "kept")
        #expect(extractor.extract("<p>kept</p><script>write('</script>'); shown()").text == "kept\n\n'); shown()")
        #expect(extractor.extract("<p>kept</p><p title=\"never closed>gone</p>").text == "kept")
        #expect(extractor.extract("<P CLASS=x>Upper</P><BR><SCRIPT>gone</SCRIPT >after").text == "Upper\n\nafter")
        #expect(extractor.extract("<nav/><p>a nav that opens</p></nav><p>b</p>").text == "b")
        #expect(extractor.extract("<svg/><p>after a closed svg</p>").text == "after a closed svg")
    }

    @Test func theFirstTitleWins() {
        let page = extractor.extract(
            "<title> One\n &amp;  two </title><body><svg><title>icon</title></svg><title>Three</title>")
        #expect(page.title == "One & two")
    }
}
