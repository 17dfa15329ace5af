#if canImport(SwiftUI)
public import SwiftUI

/// What a chat model said besides its answer text, for ``AnswerCardView``: its reasoning (shown
/// as it streams, then folded into a `DisclosureGroup` titled "Thought for 4 s"), its refusal
/// (labelled, apart from the text) and the tool calls it made (name and arguments).
///
/// ```swift
/// ModelOutputView(answer: answer)
/// ```
@MainActor
public struct ModelOutputView: View {
    let answer: AnswerViewModel

    /// - Parameter answer: the answer whose reasoning, refusal and tool calls to show.
    public init(answer: AnswerViewModel) {
        self.answer = answer
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            if !answer.reasoning.isEmpty {
                if answer.reasoningSpan.isOpen, answer.isStreaming {
                    reasoningText
                } else {
                    DisclosureGroup(title) { reasoningText }
                        .foregroundStyle(.secondary)
                }
            }
            if !answer.refusal.isEmpty {
                Label("Refused: " + answer.refusal, systemImage: "hand.raised")
                    .foregroundStyle(.orange)
            }
            ForEach(Array(answer.toolCalls.enumerated()), id: \.offset) { _, call in
                Label("\(call.name) \(call.arguments)", systemImage: "wrench.and.screwdriver")
                    .font(.footnote)
                    .lineLimit(3)
            }
        }
    }

    /// "Thought for 4 s", or "Thought" when the times are unknown (an answer from history).
    private var title: String {
        let summary = answer.reasoningSpan.summary
        return summary.prefix(1).uppercased() + summary.dropFirst()
    }

    private var reasoningText: some View {
        Text(answer.reasoning)
            .font(.footnote)
            .foregroundStyle(.secondary)
            .frame(maxWidth: .infinity, alignment: .leading)
    }
}
#endif
