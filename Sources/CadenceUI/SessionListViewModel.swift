public import CadenceStore
public import Foundation
public import Observation

/// The list of conversations (seed 004's session manager): create, switch, rename, delete, most
/// recently used first.
///
/// Changes show at once. With a `ConversationStore` they are also written through to it, in order
/// (``pendingWrites()`` waits for them); a write that fails sets ``storageError`` and leaves the
/// in-memory list as the user sees it. ``reload()`` reads the list back from the store. Time and
/// identifiers are injected, so tests and previews are deterministic.
///
/// ```swift
/// let list = SessionListViewModel(store: store)
/// try await list.reload()
/// let chat = list.create()                          // active, titled "New conversation"
/// list.recordQuestion("What is SSE?", in: chat.id)  // the first question becomes the title
/// list.rename(chat.id, to: "SSE notes")
/// list.delete(chat.id)                              // the next conversation becomes active
/// ```
@Observable @MainActor
public final class SessionListViewModel {
    /// The title of a conversation nobody has asked anything in yet.
    public static let placeholderTitle = ConversationSummary.placeholderTitle
    /// The longest title taken from a question, in characters; longer questions end with "…".
    public static let maximumDerivedTitleLength = ConversationSummary.maximumDerivedTitleLength

    /// Every conversation, most recently updated first.
    public private(set) var sessions: [ConversationSummary]
    /// The conversation on screen, if any.
    public private(set) var activeID: String?
    /// The last store write that failed, said in one line; `nil` while all is well.
    public private(set) var storageError: String?

    @ObservationIgnored private let store: (any ConversationStore)?
    @ObservationIgnored private let now: @MainActor () -> Date
    @ObservationIgnored private let makeID: @MainActor () -> String
    @ObservationIgnored private var lastWrite: Task<Void, Never>?

    /// - Parameters:
    ///   - sessions: conversations already loaded, in any order.
    ///   - activeID: the one to show; defaults to the most recent.
    ///   - store: where changes are written through, if anywhere.
    ///   - now: the wall clock.
    ///   - makeID: a new conversation's identifier.
    public init(
        sessions: [ConversationSummary] = [], activeID: String? = nil, store: (any ConversationStore)? = nil,
        now: @escaping @MainActor () -> Date = { Date() },
        makeID: @escaping @MainActor () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.sessions = sessions.sorted(by: Self.isMoreRecent)
        self.store = store
        self.now = now
        self.makeID = makeID
        let requested = activeID.flatMap { id in sessions.contains { $0.id == id } ? id : nil }
        self.activeID = requested ?? self.sessions.first?.id
    }

    /// The conversation on screen, if any.
    public var active: ConversationSummary? {
        activeID.flatMap { id in sessions.first { $0.id == id } }
    }

    /// Reads the list from the store again (after pending writes), keeping the active conversation if it is still there.
    public func reload() async throws {
        guard let store else { return }
        await pendingWrites()
        sessions = try await store.conversations()
        if activeID.map({ id in !sessions.contains { $0.id == id } }) ?? true { activeID = sessions.first?.id }
    }

    /// Waits until every change so far has been written to the store.
    public func pendingWrites() async {
        await lastWrite?.value
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
        writeThrough { store in _ = try await store.createConversation(id: session.id, title: title) }
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
        let found = update(id) {
            $0.title = title
            $0.hasPlaceholderTitle = false
        }
        if found { writeThrough { try await $0.renameConversation(id, to: title) } }
        return found
    }

    /// Records that `query` was asked in a conversation: it moves first, and a conversation still
    /// under its placeholder title takes the question as its title. (The store learns of the
    /// question from the answer's own recording.)
    @discardableResult
    public func recordQuestion(_ query: String, in id: String) -> Bool {
        update(id) { session in
            session.answerCount += 1
            session.lastAnswerState = .streaming
            guard session.hasPlaceholderTitle else { return }
            let title = ConversationSummary.title(fromQuestion: query)
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
        writeThrough { try await $0.deleteConversation(id) }
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

    /// Runs a store write after the ones before it.
    private func writeThrough(_ write: @escaping @Sendable (any ConversationStore) async throws -> Void) {
        guard let store else { return }
        let previous = lastWrite
        lastWrite = Task { [weak self] in
            await previous?.value
            do {
                try await write(store)
            } catch {
                self?.storageError = "\(error)"
            }
        }
    }

    private static func isMoreRecent(_ a: ConversationSummary, _ b: ConversationSummary) -> Bool {
        a.updatedAt > b.updatedAt
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
