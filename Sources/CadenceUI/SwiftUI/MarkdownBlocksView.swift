#if canImport(SwiftUI)
import CadenceMarkdown
import SwiftUI

/// The markdown of an answer, one `Text` per top-level block, rendered by ``AttributedStringRenderer``.
///
/// Blocks are identified by their place, as `BlockID` does: a block keeps its identity while it
/// grows, and earlier blocks compare equal from frame to frame, so SwiftUI renders them again only
/// when they change (seed 001: stable block identities, append-only updates).
///
/// ```swift
/// MarkdownBlocksView(blocks: answer.document.blocks, renderer: AttributedStringRenderer())
/// ```
@MainActor
struct MarkdownBlocksView: View {
    let blocks: [Block]
    let renderer: AttributedStringRenderer

    var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            ForEach(blocks.indices, id: \.self) { index in
                MarkdownBlockText(block: blocks[index], renderer: renderer)
                    .equatable()
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        #if !os(tvOS) && !os(watchOS)
        .textSelection(.enabled)
        #endif
    }
}

/// One block as `Text`: equal blocks skip rendering.
struct MarkdownBlockText: View, Equatable {
    let block: Block
    let renderer: AttributedStringRenderer

    var body: some View {
        Text(renderer.render([block]))
            .frame(maxWidth: .infinity, alignment: .leading)
            .fixedSize(horizontal: false, vertical: true)
    }

    nonisolated static func == (lhs: MarkdownBlockText, rhs: MarkdownBlockText) -> Bool {
        lhs.block == rhs.block && lhs.renderer.citationURLPrefix == rhs.renderer.citationURLPrefix
    }
}
#endif
