public import Foundation
public import Observation

/// The list of conversations (seed 004's session manager), in memory: create, switch, rename,
/// delete, most recently used first.
///
/// Time and identifiers are injected, so tests and previews are deterministic. Persisting the list
/// is the conversation store's job; this model only holds and orders it.
///
/// ```swift
/// let list = SessionListViewModel()
/// let chat = list.create()                          // active, titled "New conversation"
/// list.recordQuestion("What is SSE?", in: chat.id)  // the first question becomes the title
/// list.rename(chat.id, to: "SSE notes")
/// list.delete(chat.id)                              // the next conversation becomes active
/// ```
@Observable @MainActor
public final class SessionListViewModel {
    /// The title of a conversation nobody has asked anything in yet.
    public static let placeholderTitle = "New conversation"
    /// The longest title taken from a question, in characters; longer questions end with "…".
    public static let maximumDerivedTitleLength = 60

    /// Every conversation, most recently updated first.
    public private(set) var sessions: [ConversationSummary]
    /// The conversation on screen, if any.
    public private(set) var activeID: String?

    @ObservationIgnored private let now: @MainActor () -> Date
    @ObservationIgnored private let makeID: @MainActor () -> String

    /// - Parameters:
    ///   - sessions: conversations loaded from a store, in any order.
    ///   - activeID: the one to show; defaults to the most recent.
    ///   - now: the wall clock.
    ///   - makeID: a new conversation's identifier.
    public init(
        sessions: [ConversationSummary] = [], activeID: String? = nil,
        now: @escaping @MainActor () -> Date = { Date() },
        makeID: @escaping @MainActor () -> String = { UUID().uuidString }
    ) {
        self.sessions = sessions.sorted(by: Self.isMoreRecent)
        self.now = now
        self.makeID = makeID
        let requested = activeID.flatMap { id in sessions.contains { $0.id == id } ? id : nil }
        self.activeID = requested ?? self.sessions.first?.id
    }

    /// The conversation on screen, if any.
    public var active: ConversationSummary? {
        activeID.flatMap { id in sessions.first { $0.id == id } }
    }

    /// Starts a conversation, puts it first and shows it.
    @discardableResult
    public func create(title: String? = nil) -> ConversationSummary {
        let date = now()
        let trimmed = title.map(Self.trimmed) ?? ""
        let session = ConversationSummary(
            id: makeID(), title: trimmed.isEmpty ? Self.placeholderTitle : trimmed,
            createdAt: date, updatedAt: date, hasPlaceholderTitle: trimmed.isEmpty)
        sessions.insert(session, at: 0)
        activeID = session.id
        return session
    }

    /// Shows another conversation. Returns `false` if there is none with that id.
    @discardableResult
    public func select(_ id: String) -> Bool {
        guard sessions.contains(where: { $0.id == id }) else { return false }
        activeID = id
        return true
    }

    /// Renames a conversation; surrounding whitespace is dropped. Returns `false` (and changes
    /// nothing) for an unknown id or a blank title.
    @discardableResult
    public func rename(_ id: String, to title: String) -> Bool {
        let title = Self.trimmed(title)
        guard !title.isEmpty else { return false }
        return update(id) {
            $0.title = title
            $0.hasPlaceholderTitle = false
        }
    }

    /// Records that `query` was asked in a conversation: it moves first, and a conversation still
    /// under its placeholder title takes the question as its title.
    @discardableResult
    public func recordQuestion(_ query: String, in id: String) -> Bool {
        update(id) { session in
            guard session.hasPlaceholderTitle else { return }
            let title = Self.derivedTitle(from: query)
            guard !title.isEmpty else { return }
            session.title = title
            session.hasPlaceholderTitle = false
        }
    }

    /// Deletes a conversation. If it was on screen, the one that takes its place in the list
    /// (or else the one before it) is shown. Returns `false` for an unknown id.
    @discardableResult
    public func delete(_ id: String) -> Bool {
        guard let index = sessions.firstIndex(where: { $0.id == id }) else { return false }
        sessions.remove(at: index)
        if activeID == id {
            activeID = sessions.isEmpty ? nil : sessions[min(index, sessions.count - 1)].id
        }
        return true
    }

    // MARK: Steps

    /// Changes one conversation, stamps it with the current time and moves it first.
    private func update(_ id: String, _ change: (inout ConversationSummary) -> Void) -> Bool {
        guard let index = sessions.firstIndex(where: { $0.id == id }) else { return false }
        var session = sessions.remove(at: index)
        change(&session)
        session.updatedAt = now()
        sessions.insert(session, at: 0)
        return true
    }

    private static func isMoreRecent(_ a: ConversationSummary, _ b: ConversationSummary) -> Bool {
        a.updatedAt > b.updatedAt
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// A question as a one-line title: whitespace runs become single spaces, long ones are cut at a word.
    static func derivedTitle(from query: String) -> String {
        let line = query.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard line.count > maximumDerivedTitleLength else { return line }
        let cut = line.prefix(maximumDerivedTitleLength - 1)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord + "…"
    }
}
