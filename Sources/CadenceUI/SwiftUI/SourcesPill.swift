#if canImport(SwiftUI)
import CadenceCore
import Foundation
import SwiftUI

/// "3 sources" in a capsule; a tap opens the list, each source opening its page.
///
/// Numbers are the sources' ids, the citation numbers the text's markers use.
///
/// ```swift
/// if !answer.sources.isEmpty { SourcesPill(sources: answer.sources) }
/// ```
@MainActor
struct SourcesPill: View {
    let sources: [Source]

    var body: some View {
        #if os(watchOS)
        pill
        #else
        Menu {
            ForEach(sources, id: \.url) { source in
                if let url = URL(string: source.url) {
                    Link(destination: url) {
                        Text(Self.title(of: source))
                    }
                } else {
                    Text(Self.title(of: source))
                }
            }
        } label: {
            pill
        }
        .fixedSize()
        #endif
    }

    private var pill: some View {
        Label(countText, systemImage: "link")
            .font(.footnote)
            .padding(.horizontal, 10)
            .padding(.vertical, 4)
            .background(.thinMaterial, in: Capsule())
    }

    private var countText: String {
        sources.count == 1 ? "1 source" : "\(sources.count) sources"
    }

    private static func title(of source: Source) -> String {
        "[\(source.id)] \(source.title.isEmpty ? source.url : source.title)"
    }
}
#endif
