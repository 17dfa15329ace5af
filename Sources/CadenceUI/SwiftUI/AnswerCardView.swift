#if canImport(SwiftUI)
public import CadenceMarkdown
public import SwiftUI

/// One answer on screen: the question; the research stage, with a spinner, while the answer is in
/// progress, or how it ended; a sources pill; the connection banner; a chat model's reasoning,
/// refusal and tool calls (``ModelOutputView``); the markdown text as the pacer reveals it; and,
/// only once ``AnswerViewModel/showsActions``, an actions row and the follow-ups.
///
/// The card only reads the model. Its text is ``AnswerViewModel/document``, the markdown of
/// ``AnswerViewModel/visibleText``, which changes once per display frame, so something must call
/// ``ChatViewModel/frame()`` (``ChatListView`` does, through ``DisplayFrameDriver``). Each top-level
/// block is its own `Text`, rendered with ``AttributedStringRenderer``; blocks keep their place as
/// identity, so a frame re-renders only the block that grew.
///
/// The stop button cancels a streaming answer through `onStop` (it keeps its partial text); on an
/// answer whose stream has ended but whose text is still being revealed, it shows the rest at once
/// (``AnswerViewModel/revealAll()``).
///
/// ```swift
/// AnswerCardView(
///     answer: answer,
///     onStop: { chat.cancel(answer.id) },
///     onRetry: { chat.retry(answer.id) },
///     onFollowUp: { question in chat.send(question) })
/// ```
@MainActor
public struct AnswerCardView: View {
    let answer: AnswerViewModel
    let renderer: AttributedStringRenderer
    let onStop: (@MainActor () -> Void)?
    let onRetry: (@MainActor () -> Void)?
    let onFollowUp: (@MainActor (String) -> Void)?

    /// - Parameters:
    ///   - answer: the answer to show.
    ///   - renderer: turns the markdown into `AttributedString`s.
    ///   - onStop: cancels the answer's stream (`chat.cancel(answer.id)`); without it, a streaming
    ///     answer shows no stop button.
    ///   - onRetry: asks the question again (`chat.retry(answer.id)`); without it, no retry button.
    ///   - onFollowUp: asks a suggested follow-up question; without it, follow-ups are not shown.
    public init(
        answer: AnswerViewModel, renderer: AttributedStringRenderer = AttributedStringRenderer(),
        onStop: (@MainActor () -> Void)? = nil, onRetry: (@MainActor () -> Void)? = nil,
        onFollowUp: (@MainActor (String) -> Void)? = nil
    ) {
        self.answer = answer
        self.renderer = renderer
        self.onStop = onStop
        self.onRetry = onRetry
        self.onFollowUp = onFollowUp
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text(answer.query)
                .font(.headline)
                .frame(maxWidth: .infinity, alignment: .leading)
            HStack(alignment: .center, spacing: 8) {
                AnswerStatusLine(answer: answer, onStop: onStop)
                Spacer(minLength: 8)
                if !answer.sources.isEmpty {
                    SourcesPill(sources: answer.sources)
                }
            }
            if let banner = answer.banner {
                ConnectionBannerLabel(banner: banner)
            }
            if !answer.reasoning.isEmpty || !answer.refusal.isEmpty || !answer.toolCalls.isEmpty {
                ModelOutputView(answer: answer)
            }
            MarkdownBlocksView(blocks: answer.document.blocks, renderer: renderer)
            if answer.showsActions {
                AnswerActionsRow(answer: answer, onRetry: onRetry, onFollowUp: onFollowUp)
            }
        }
        .padding()
        .background(Color.secondary.opacity(0.08), in: RoundedRectangle(cornerRadius: 16, style: .continuous))
    }
}
#endif
