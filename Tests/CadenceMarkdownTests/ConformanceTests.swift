import Testing

@testable import CadenceMarkdown

/// CommonMark 0.31.2 (without extensions, as the spec's runner) and the GFM 0.29 extension examples
/// (with extensions, as cmark-gfm's runner), each example its own test case.
@Suite struct ConformanceTests {
    @Test func corporaAreLoaded() {
        #expect(SpecExample.commonMark.count == 652)
        #expect(SpecExample.gfm.count == 24)
    }

    @Test(arguments: SpecExample.commonMark)
    func commonMark(_ example: SpecExample) {
        let tree = MarkdownParser(options: .commonMark).parse(example.markdown)
        let html = HTMLRenderer(tagFilter: false).render(tree)
        #expect(HTMLNormalizer.equivalent(html, example.html), "markdown: \(example.markdown.debugDescription)")
    }

    @Test(arguments: SpecExample.gfm)
    func gfmExtensions(_ example: SpecExample) {
        let tree = MarkdownParser(options: .gfm).parse(example.markdown)
        let html = HTMLRenderer(tagFilter: true).render(tree)
        #expect(HTMLNormalizer.equivalent(html, example.html), "markdown: \(example.markdown.debugDescription)")
    }

    /// With the GFM extensions on, only the examples an extension changes by design differ:
    /// disallowed raw HTML (`<script>`, `<style>`, `<textarea>`) and bare URLs or emails becoming links.
    @Test func commonMarkUnderGFMChangesOnlyExtensionExamples() {
        var changed: [Int] = []
        for example in SpecExample.commonMark {
            let html = HTMLRenderer(tagFilter: true).render(MarkdownParser(options: .gfm).parse(example.markdown))
            if !HTMLNormalizer.equivalent(html, example.html) { changed.append(example.example) }
        }
        #expect(changed == [170, 171, 172, 173, 176, 178, 602, 606, 608, 611, 612])
    }
}

@Suite struct HTMLNormalizerTests {
    @Test func distinguishesContentAndIgnoresLayout() {
        #expect(!HTMLNormalizer.equivalent("<p>a</p>\n", "<p>b</p>\n"))
        #expect(!HTMLNormalizer.equivalent("<em>a</em>", "<strong>a</strong>"))
        #expect(
            HTMLNormalizer.equivalent(
                "<li><input type=\"checkbox\" disabled=\"\" /> a</li>",
                "<li><input disabled=\"\" type=\"checkbox\"> a</li>"))
        #expect(HTMLNormalizer.equivalent("<ul>\n<li>a</li>\n</ul>\n", "<ul><li>a</li></ul>"))
    }
}
