#if canImport(SwiftUI)
public import CadenceMarkdown
public import SwiftUI

/// One conversation on screen: its answers as ``AnswerCardView``s in reading order, oldest at the
/// top and the newest at the bottom, with the "↓ N new" pill while the list does not follow new
/// content (seeds 001 and 004).
///
/// ``ChatViewModel/answers`` is newest first; the list shows it reversed, so that "the bottom", where
/// a pinned list stays and where the pill leads, is where the newest answer grows. Every decision is
/// the model's; the view only reports and obeys:
///
/// - frames: a ``DisplayFrameDriver`` calls ``ChatViewModel/frame()`` while answers stream or animate;
/// - following: each change of ``ChatViewModel/scrollRequests`` scrolls to a row under the last
///   answer (also once when the list appears, since a chat starts pinned);
/// - a drag on the list calls ``ChatViewModel/userDragged()`` (the model stops following);
/// - the distance from the viewport's bottom to that row is reported with
///   ``ChatViewModel/scrolled(distanceFromBottom:)`` (the model follows again once it is within
///   its re-pin distance, 50 pt by default);
/// - the pill shows ``ChatViewModel/pillCount``; a tap calls ``ChatViewModel/pillTapped()``.
///
/// A mouse wheel or a trackpad makes no drag gesture, so on macOS nothing unpins the list: while an
/// answer streams there, the list keeps following it. (On tvOS there is no drag gesture at all.)
///
/// Citations in the text link to `cadence-source://n` (the renderer's prefix); handle them with
/// `.environment(\.openURL, …)` around the list.
///
/// ```swift
/// struct ConversationScreen: View {
///     let chat: ChatViewModel
///     @State private var draft = ""
///
///     var body: some View {
///         ChatListView(chat: chat)
///             .safeAreaInset(edge: .bottom) {
///                 TextField("Ask anything", text: $draft)
///                     .onSubmit { chat.send(draft); draft = "" }
///                     .padding()
///             }
///     }
/// }
/// ```
@MainActor
public struct ChatListView: View {
    /// The row under the last answer: where every scroll to the bottom goes.
    static let bottomID = "cadence.chat.bottom"
    /// The scroll view's own space, in which the bottom row measures how far below the viewport it is.
    static let scrollSpace: NamedCoordinateSpace = .named("cadence.chat.scroll")

    let chat: ChatViewModel
    let renderer: AttributedStringRenderer
    let frameInterval: Duration
    let ask: (@MainActor (String) -> Void)?

    /// - Parameters:
    ///   - chat: the conversation.
    ///   - renderer: turns each answer's markdown into `AttributedString`s; set its citation link
    ///     prefix here.
    ///   - frameInterval: the time between two display frames while answers stream or animate.
    ///   - ask: sends a follow-up question tapped under an answer; `chat.send(_:)` when `nil`. Pass
    ///     your own to record the question too (``SessionListViewModel/recordQuestion(_:in:)``).
    public init(
        chat: ChatViewModel, renderer: AttributedStringRenderer = AttributedStringRenderer(),
        frameInterval: Duration = .milliseconds(16), ask: (@MainActor (String) -> Void)? = nil
    ) {
        self.chat = chat
        self.renderer = renderer
        self.frameInterval = frameInterval
        self.ask = ask
    }

    public var body: some View {
        GeometryReader { viewport in
            ScrollViewReader { proxy in
                ScrollView {
                    VStack(spacing: 0) {
                        LazyVStack(alignment: .leading, spacing: 24) {
                            ForEach(chat.answers.reversed()) { answer in
                                card(for: answer)
                            }
                        }
                        .padding()
                        bottomRow(viewportHeight: viewport.size.height)
                    }
                }
                .coordinateSpace(Self.scrollSpace)
                #if !os(tvOS)
                .simultaneousGesture(DragGesture().onChanged { _ in chat.userDragged() })
                #endif
                .onChange(of: chat.scrollRequests, initial: true) { previous, current in
                    // The initial call (equal values) places a list that just appeared without animation.
                    scrollToBottom(with: proxy, animated: previous != current)
                }
                .overlay(alignment: .bottom) { pill }
                .overlay(alignment: .top) { storageWarning }
            }
        }
        .drivingFrames(of: chat, interval: frameInterval)
    }

    private func card(for answer: AnswerViewModel) -> some View {
        AnswerCardView(
            answer: answer, renderer: renderer,
            onStop: { chat.cancel(answer.id) },
            onRetry: { chat.retry(answer.id) },
            onFollowUp: { question in send(question) })
    }

    /// An empty row after the answers: the scroll target, and the probe of the distance from the bottom.
    /// It sits outside the lazy stack, so it is always laid out and always reports.
    private func bottomRow(viewportHeight: CGFloat) -> some View {
        GeometryReader { geometry in
            let distance = geometry.frame(in: Self.scrollSpace).maxY - viewportHeight
            Color.clear
                .onChange(of: distance, initial: true) { _, current in
                    chat.scrolled(distanceFromBottom: Double(max(0, current)))
                }
        }
        .frame(height: 1)
        .id(Self.bottomID)
    }

    private var pill: some View {
        ZStack {
            if let count = chat.pillCount {
                ScrollToBottomPill(count: count) { chat.pillTapped() }
                    .padding(.bottom, 12)
                    .transition(.move(edge: .bottom).combined(with: .opacity))
            }
        }
        .animation(.easeOut(duration: 0.2), value: chat.pillCount)
    }

    @ViewBuilder private var storageWarning: some View {
        if let problem = chat.storageError {
            Label(problem, systemImage: "exclamationmark.triangle")
                .font(.footnote)
                .lineLimit(2)
                .padding(.horizontal, 12)
                .padding(.vertical, 6)
                .background(.thinMaterial, in: Capsule())
                .padding(.top, 8)
        }
    }

    private func scrollToBottom(with proxy: ScrollViewProxy, animated: Bool) {
        guard animated else {
            proxy.scrollTo(Self.bottomID, anchor: .bottom)
            return
        }
        withAnimation(.easeOut(duration: 0.15)) {
            proxy.scrollTo(Self.bottomID, anchor: .bottom)
        }
    }

    private func send(_ question: String) {
        if let ask {
            ask(question)
        } else {
            chat.send(question)
        }
    }
}
#endif
