public import Foundation

/// One row of the conversation list: what identifies a conversation and when it was last used.
///
/// ```swift
/// let row = ConversationSummary(id: "c1", title: "What is SSE?", createdAt: .now, updatedAt: .now)
/// print(row.title)
/// ```
public struct ConversationSummary: Sendable, Hashable, Identifiable {
    public var id: String
    /// The name shown in the list: the first question, unless the user renamed it.
    public var title: String
    public var createdAt: Date
    /// When the conversation last changed (created, renamed, asked in).
    public var updatedAt: Date
    /// Whether the title is still the placeholder, to be replaced by the first question.
    public var hasPlaceholderTitle: Bool

    public init(id: String, title: String, createdAt: Date, updatedAt: Date, hasPlaceholderTitle: Bool = false) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hasPlaceholderTitle = hasPlaceholderTitle
    }
}
