#if canImport(SwiftUI)
import SwiftUI
#if os(iOS) || os(visionOS)
import UIKit
#elseif os(macOS)
import AppKit
#endif

/// What can be done with a finished answer: copy it, share it, ask it again, and ask one of its
/// suggested follow-up questions. ``AnswerCardView`` shows it only while
/// ``AnswerViewModel/showsActions``.
///
/// ```swift
/// if answer.showsActions {
///     AnswerActionsRow(answer: answer, onRetry: { chat.retry(answer.id) }, onFollowUp: { chat.send($0) })
/// }
/// ```
@MainActor
struct AnswerActionsRow: View {
    let answer: AnswerViewModel
    let onRetry: (@MainActor () -> Void)?
    let onFollowUp: (@MainActor (String) -> Void)?

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack(spacing: 16) {
                #if os(iOS) || os(visionOS) || os(macOS)
                Button {
                    copy(answer.text)
                } label: {
                    Label("Copy", systemImage: "doc.on.doc")
                }
                #endif
                #if !os(tvOS)
                ShareLink(item: answer.text) {
                    Label("Share", systemImage: "square.and.arrow.up")
                }
                #endif
                if let onRetry {
                    Button {
                        onRetry()
                    } label: {
                        Label("Retry", systemImage: "arrow.clockwise")
                    }
                }
            }
            if let onFollowUp, !answer.followUps.isEmpty {
                ForEach(answer.followUps.indices, id: \.self) { index in
                    let question = answer.followUps[index]
                    Button {
                        onFollowUp(question)
                    } label: {
                        Label(question, systemImage: "arrow.turn.down.right")
                            .multilineTextAlignment(.leading)
                    }
                }
            }
        }
        .font(.footnote)
    }

    #if os(iOS) || os(visionOS) || os(macOS)
    private func copy(_ text: String) {
        #if os(macOS)
        NSPasteboard.general.clearContents()
        NSPasteboard.general.setString(text, forType: .string)
        #else
        UIPasteboard.general.string = text
        #endif
    }
    #endif
}
#endif
