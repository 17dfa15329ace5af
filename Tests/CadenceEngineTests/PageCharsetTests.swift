import Foundation
import Testing

@testable import CadenceEngine

/// Pages in other charsets: the byte-order mark, the HTTP charset and `<meta>` decide, as in a browser.
@Suite struct PageCharsetTests {
    let extractor = HTMLTextExtractor()
    /// "Crème brûlée – 5 €" in Windows-1252.
    let windows1252Text: [UInt8] = [
        0x43, 0x72, 0xE8, 0x6D, 0x65, 0x20, 0x62, 0x72, 0xFB, 0x6C, 0xE9, 0x65, 0x20, 0x96, 0x20, 0x35, 0x20, 0x80,
    ]

    func page(_ head: String, _ body: [UInt8]) -> [UInt8] {
        Array("<html><head>\(head)</head><body><p>".utf8) + body + Array("</p></body></html>".utf8)
    }

    @Test(arguments: ["iso-8859-1", "ISO-8859-1", "latin1", "windows-1252", "\"windows-1252\"", "us-ascii"])
    func theHTTPCharset(label: String) {
        #expect(extractor.extract(page("", windows1252Text), charset: label).text == "Crème brûlée – 5 €")
    }

    @Test(arguments: [
        "<meta charset=\"iso-8859-1\">", "<meta charset=windows-1252>",
        "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">",
        "<META HTTP-EQUIV=content-type CONTENT='text/html;charset=windows-1252'>",
    ])
    func aMetaDeclaration(meta: String) {
        #expect(extractor.extract(page(meta, windows1252Text)).text == "Crème brûlée – 5 €")
    }

    @Test func theHeaderBeatsMetaAndTheByteOrderMarkBeatsBoth() {
        let utf8 = Array("Crème".utf8)
        #expect(extractor.extract(page("<meta charset=iso-8859-1>", utf8), charset: "utf-8").text == "Crème")
        let marked = [0xEF, 0xBB, 0xBF] + page("<meta charset=iso-8859-1>", utf8)
        #expect(extractor.extract(marked, charset: "iso-8859-1").text == "Crème")
    }

    @Test func undeclaredBytesAreUTF8WhenValidAndWindows1252Otherwise() {
        #expect(extractor.extract(page("", Array("Crème".utf8))).text == "Crème")
        #expect(extractor.extract(page("", windows1252Text)).text == "Crème brûlée – 5 €")
    }

    @Test func invalidUTF8IsReplacedNotDropped() {
        #expect(extractor.extract(page("", [0x61, 0xFF, 0x62]), charset: "utf-8").text == "a\u{FFFD}b")
    }

    @Test func utf16WithAByteOrderMark() {
        let units = "<p>Grüße</p>".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let bytes: [UInt8] = [0xFF, 0xFE] + units
        #expect(extractor.extract(bytes).text == "Grüße")
    }

    @Test func plainText() {
        #expect(ExtractedPage(plainText: windows1252Text, charset: "iso-8859-1").text == "Crème brûlée – 5 €")
        #expect(ExtractedPage(plainText: Array("a\r\nb\u{7}".utf8)).text == "a\nb")
    }

    @Test func theCharsetParameter() {
        #expect(PageCharset.charsetParameter(of: "text/html; charset=\"UTF-8\"") == "UTF-8")
        #expect(PageCharset.charsetParameter(of: "text/html;foo=bar; Charset = latin1 ") == "latin1")
        #expect(PageCharset.charsetParameter(of: "text/html") == nil)
    }
}
