public import Foundation

/// One row of the conversation list: what identifies a conversation, when it was last used and how
/// its last answer stands.
///
/// ```swift
/// for row in try await store.conversations() {
///     print(row.id, row.title, row.updatedAt, row.lastAnswerState?.label ?? "empty")
/// }
/// ```
public struct ConversationSummary: Sendable, Hashable, Identifiable {
    public var id: String
    /// The name shown in the list: the first question, unless the user renamed it.
    public var title: String
    public var createdAt: Date
    /// When the conversation last changed (created, renamed, asked in, answered).
    public var updatedAt: Date
    /// Whether the title is still the placeholder, to be replaced by the first question.
    public var hasPlaceholderTitle: Bool
    /// How the newest answer stands, or `nil` if nothing was asked yet.
    public var lastAnswerState: AnswerState?
    /// How many questions were asked.
    public var answerCount: Int

    public init(
        id: String, title: String, createdAt: Date, updatedAt: Date, hasPlaceholderTitle: Bool = false,
        lastAnswerState: AnswerState? = nil, answerCount: Int = 0
    ) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hasPlaceholderTitle = hasPlaceholderTitle
        self.lastAnswerState = lastAnswerState
        self.answerCount = answerCount
    }

    /// The title of a conversation nobody has asked anything in yet.
    public static let placeholderTitle = "New conversation"
    /// The longest title taken from a question, in characters; longer questions end with "…".
    public static let maximumDerivedTitleLength = 60

    /// A question as a one-line title: whitespace runs become single spaces, long ones are cut at a
    /// word and end with "…".
    ///
    /// ```swift
    /// ConversationSummary.title(fromQuestion: "  What is\nSSE? ")   // "What is SSE?"
    /// ```
    public static func title(fromQuestion query: String) -> String {
        query.split(whereSeparator: \.isWhitespace).joined(separator: " ").clippedAtWord(to: maximumDerivedTitleLength)
    }
}
