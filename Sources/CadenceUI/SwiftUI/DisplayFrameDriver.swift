#if canImport(SwiftUI)
public import SwiftUI

/// Drives a chat's display frames from SwiftUI: while the chat has frames to show
/// (``ChatViewModel/needsFrames``) or a stream open (``ChatViewModel/isStreaming``), a task calls
/// ``ChatViewModel/frame()`` once per `interval` on a ``FrameTicker`` over `ContinuousClock`.
///
/// When neither is true any more the loop ends, so an idle chat costs nothing; sending or retrying
/// a question changes ``ChatViewModel/answers``, which starts it again. The task belongs to the view:
/// it stops when the view goes away and starts again when it comes back. ``ChatListView`` attaches
/// one; attach your own only to a chat shown some other way.
///
/// ```swift
/// MyTranscript(chat: chat)
///     .drivingFrames(of: chat)
/// ```
@MainActor
public struct DisplayFrameDriver: ViewModifier {
    let chat: ChatViewModel
    let interval: Duration
    /// How many loops ended because nothing was left to do. Bumping it makes SwiftUI read the demand
    /// again, so the next demand is a change of the task's id and starts a new loop.
    @State private var pauses = 0

    /// - Parameters:
    ///   - chat: the conversation whose answers are animated.
    ///   - interval: the time between two frames; must be positive.
    public init(chat: ChatViewModel, interval: Duration = .milliseconds(16)) {
        self.chat = chat
        self.interval = interval
    }

    public func body(content: Content) -> some View {
        content.task(id: FrameDemand(isWanted: Self.wantsFrames(chat), pauses: pauses)) {
            guard Self.wantsFrames(chat) else { return }
            let ticker = FrameTicker(clock: ContinuousClock(), interval: interval)
            do {
                try await ticker.run { _ in
                    chat.frame()
                    return Self.wantsFrames(chat)
                }
            } catch {
                return  // Cancelled: the view went away, or the demand changed and another task took over.
            }
            pauses += 1
        }
    }

    /// Whether the chat has frames to show or a stream that may bring some.
    private static func wantsFrames(_ chat: ChatViewModel) -> Bool {
        chat.needsFrames || chat.isStreaming
    }
}

/// The identity of the frame task: a new value starts a new task.
struct FrameDemand: Hashable {
    var isWanted: Bool
    var pauses: Int
}

extension View {
    /// Calls `chat.frame()` once per `interval` while the chat streams or animates (see
    /// ``DisplayFrameDriver``).
    ///
    /// ```swift
    /// MyTranscript(chat: chat).drivingFrames(of: chat, interval: .milliseconds(8))   // 120 Hz
    /// ```
    public func drivingFrames(of chat: ChatViewModel, interval: Duration = .milliseconds(16)) -> some View {
        modifier(DisplayFrameDriver(chat: chat, interval: interval))
    }
}
#endif
