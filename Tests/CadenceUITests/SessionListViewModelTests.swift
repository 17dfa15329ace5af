import CadenceStore
import CadenceUI
import Foundation
import Testing

@MainActor
@Suite struct SessionListViewModelTests {
    /// A list whose clock moves one second per reading and whose ids count up: c1, c2, …
    @MainActor final class Fixture {
        var seconds = 0.0
        var nextID = 0
        lazy var list = SessionListViewModel(
            now: { [unowned self] in
                seconds += 1
                return Date(timeIntervalSince1970: seconds)
            },
            makeID: { [unowned self] in
                nextID += 1
                return "c\(nextID)"
            })
    }

    @Test func changesAreWrittenThroughToTheStoreInOrder() async throws {
        let store = try SQLiteConversationStore.inMemory()
        var next = 0
        let list = SessionListViewModel(
            store: store,
            makeID: {
                next += 1
                return "s\(next)"
            })
        let first = list.create()
        let second = list.create(title: "Second")
        list.rename(first.id, to: "Renamed first")
        list.delete(second.id)
        await list.pendingWrites()
        #expect(list.storageError == nil)
        let stored = try await store.conversations()
        #expect(stored.map(\.id) == ["s1"])
        #expect(stored.first?.title == "Renamed first" && stored.first?.hasPlaceholderTitle == false)

        // Another list on the same store reads it back.
        let other = SessionListViewModel(store: store)
        try await other.reload()
        #expect(other.sessions.map(\.id) == ["s1"] && other.activeID == "s1")
    }

    @Test func aFailedWriteIsReportedAndTheListStaysAsShown() async throws {
        let store = try SQLiteConversationStore.inMemory()
        let list = SessionListViewModel(
            sessions: [ConversationSummary(id: "ghost", title: "Not in the store", createdAt: .now, updatedAt: .now)],
            store: store)
        list.rename("ghost", to: "Still shown")
        await list.pendingWrites()
        #expect(list.storageError?.contains("ghost") == true)
        #expect(list.sessions.first?.title == "Still shown")
    }

    @Test func startsEmpty() {
        let list = SessionListViewModel()
        #expect(list.sessions.isEmpty)
        #expect(list.activeID == nil && list.active == nil)
    }

    @Test func createPutsTheNewConversationFirstAndShowsIt() {
        let fixture = Fixture()
        let first = fixture.list.create()
        let second = fixture.list.create(title: "  Named  ")
        #expect(fixture.list.sessions.map(\.id) == ["c2", "c1"])
        #expect(fixture.list.activeID == second.id)
        #expect(first.title == SessionListViewModel.placeholderTitle && first.hasPlaceholderTitle)
        #expect(second.title == "Named" && !second.hasPlaceholderTitle)
        #expect(first.createdAt == Date(timeIntervalSince1970: 1))
        #expect(second.createdAt == second.updatedAt)
    }

    @Test func selectSwitchesOnlyToKnownConversations() {
        let fixture = Fixture()
        let first = fixture.list.create()
        fixture.list.create()
        #expect(fixture.list.select(first.id))
        #expect(fixture.list.active?.id == first.id)
        #expect(!fixture.list.select("missing"))
        #expect(fixture.list.activeID == first.id)
    }

    @Test func renameTrimsRejectsBlankAndMovesFirst() {
        let fixture = Fixture()
        let first = fixture.list.create()
        fixture.list.create()
        #expect(fixture.list.rename(first.id, to: "  SSE notes\n"))
        #expect(fixture.list.sessions.first?.title == "SSE notes")
        #expect(fixture.list.sessions.first?.updatedAt == Date(timeIntervalSince1970: 3))
        #expect(!fixture.list.rename(first.id, to: "   "))
        #expect(!fixture.list.rename("missing", to: "x"))
        #expect(fixture.list.sessions.first?.title == "SSE notes")
    }

    @Test func firstQuestionBecomesTheTitleOnce() {
        let fixture = Fixture()
        let chat = fixture.list.create()
        fixture.list.create()
        #expect(fixture.list.recordQuestion("What is\n  server-sent   events?", in: chat.id))
        #expect(fixture.list.sessions.map(\.id) == ["c1", "c2"])
        #expect(fixture.list.sessions[0].title == "What is server-sent events?")
        fixture.list.recordQuestion("And WebSockets?", in: chat.id)
        #expect(fixture.list.sessions[0].title == "What is server-sent events?")
        #expect(!fixture.list.recordQuestion("q", in: "missing"))
    }

    @Test func renamedConversationKeepsItsTitleAfterAQuestion() {
        let fixture = Fixture()
        let chat = fixture.list.create()
        fixture.list.rename(chat.id, to: "Mine")
        fixture.list.recordQuestion("Something else", in: chat.id)
        #expect(fixture.list.active?.title == "Mine")
    }

    @Test func longQuestionsAreCutAtAWord() {
        let fixture = Fixture()
        let chat = fixture.list.create()
        let query = String(repeating: "streaming ", count: 20)
        fixture.list.recordQuestion(query, in: chat.id)
        let title = fixture.list.sessions[0].title
        #expect(title.count <= SessionListViewModel.maximumDerivedTitleLength)
        #expect(title.hasSuffix("streaming…"))
    }

    @Test(arguments: [
        // (sessions created c1…c4 shown newest first: c4 c3 c2 c1), deleted, active before, active after
        ("c3", "c3", "c2"),
        ("c1", "c1", "c2"),
        ("c4", "c4", "c3"),
        ("c2", "c4", "c4"),
    ])
    func deleteShowsTheNeighbourOfTheDeletedActiveConversation(deleted: String, active: String, expected: String) {
        let fixture = Fixture()
        for _ in 0..<4 { fixture.list.create() }
        fixture.list.select(active)
        #expect(fixture.list.delete(deleted))
        #expect(!fixture.list.sessions.contains { $0.id == deleted })
        #expect(fixture.list.activeID == expected)
    }

    @Test func deletingTheLastConversationLeavesNoneActive() {
        let fixture = Fixture()
        let chat = fixture.list.create()
        #expect(!fixture.list.delete("missing"))
        #expect(fixture.list.delete(chat.id))
        #expect(fixture.list.sessions.isEmpty && fixture.list.activeID == nil)
    }

    @Test func loadedSessionsAreOrderedNewestFirst() {
        let day = { (n: Double) in Date(timeIntervalSince1970: n * 86_400) }
        let loaded = [
            ConversationSummary(id: "old", title: "Old", createdAt: day(1), updatedAt: day(1)),
            ConversationSummary(id: "new", title: "New", createdAt: day(2), updatedAt: day(5)),
            ConversationSummary(id: "mid", title: "Mid", createdAt: day(3), updatedAt: day(3)),
        ]
        let list = SessionListViewModel(sessions: loaded)
        #expect(list.sessions.map(\.id) == ["new", "mid", "old"])
        #expect(list.activeID == "new")
        #expect(SessionListViewModel(sessions: loaded, activeID: "old").activeID == "old")
        #expect(SessionListViewModel(sessions: loaded, activeID: "gone").activeID == "new")
    }
}
