import Testing

@testable import CadenceMarkdown

/// An extended autolink's domain starts with a byte a host name can start with, as cmark-gfm has it
/// (checked against cmark-gfm 0.29.0.gfm.6): `https:// x.com` and `https://-x.com` are text.
/// The fuzzer found the first: with the space accepted, a link ran past a space, and the open
/// paragraph's tail read, which takes a space as the end of any link, differed from a rebuild.
@Suite struct AutolinkDomainTests {
    static func links(_ text: String) -> [String] {
        guard case .paragraph(let inlines)? = MarkdownParser(options: .gfm).parse(text).blocks.first else { return [] }
        return inlines.compactMap { inline in
            if case .link(let destination, _, _) = inline { return destination ?? "" }
            return nil
        }
    }

    @Test(arguments: ["a https:// x.com b", "a https://-x.com b", "a https://_x.com b", "a https://.x.com b"])
    func noLinkWhenTheDomainStartsWithSpaceOrPunctuation(_ text: String) {
        #expect(Self.links(text).isEmpty)
    }

    @Test func aDomainThatStartsWithALetterOrANonASCIIByteLinks() {
        #expect(Self.links("a https://x.com b") == ["https://x.com"])
        #expect(Self.links("a https://\u{FFFD}x b") == ["https://%EF%BF%BDx"])
    }

    @Test func theTailReadAfterAnOpenURLAndASpaceEqualsARebuild() {
        var document = MarkdownDocument()
        for chunk in [";h", "ttps:// \u{FFFD}\u{FFFD}c", "\u{FFFD}m?*>"] {
            document.append(chunk)
            #expect(document.tail == document.freshTail())
        }
    }
}
