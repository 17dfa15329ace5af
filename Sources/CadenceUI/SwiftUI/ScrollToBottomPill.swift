#if canImport(SwiftUI)
public import SwiftUI

/// The "↓ N new" pill over a chat that no longer follows new content (seed 001): it shows
/// ``ChatViewModel/pillCount``, and a tap goes back to the bottom through
/// ``ChatViewModel/pillTapped()``, which also pins the chat again.
///
/// ``ChatListView`` shows it; use it on its own only over a chat list of your own.
///
/// ```swift
/// .overlay(alignment: .bottom) {
///     if let count = chat.pillCount {
///         ScrollToBottomPill(count: count) { chat.pillTapped() }
///     }
/// }
/// ```
@MainActor
public struct ScrollToBottomPill: View {
    let count: Int
    let action: @MainActor () -> Void

    /// - Parameters:
    ///   - count: how much new content is below the viewport (``ChatViewModel/pillCount``).
    ///   - action: what a tap does: `chat.pillTapped()`.
    public init(count: Int, action: @escaping @MainActor () -> Void) {
        self.count = count
        self.action = action
    }

    public var body: some View {
        Button {
            action()
        } label: {
            Text("↓ \(count) new")
                .font(.footnote.weight(.semibold))
                .monospacedDigit()
                .padding(.horizontal, 14)
                .padding(.vertical, 7)
                .background(.thinMaterial, in: Capsule())
                .shadow(radius: 2, y: 1)
        }
        .buttonStyle(.plain)
        .accessibilityLabel("\(count) new below; scroll to the bottom")
    }
}
#endif
