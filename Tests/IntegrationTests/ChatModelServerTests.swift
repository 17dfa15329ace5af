import CadenceClient
import CadenceCore
import CadenceServer
import CadenceStore
import CadenceTestFixtures
import CadenceTesting
import CadenceUI
import Foundation
import Testing

/// The view models driven by a real `AnswerStream` against the real reference server, recording
/// into a real SQLite file.
@Suite("Chat view models against the reference server")
@MainActor
final class ChatModelServerTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-chat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func source(_ server: RunningServer) -> ChatViewModel.AnswerSource {
        let url = server.baseURL
        return ChatViewModel.source { AnswerStream(request: $0, transport: SSETransport(baseURL: url)) }
    }

    /// Advances frames on the manual clock until the answer has shown everything.
    func animate(_ chat: ChatViewModel, _ clock: ManualClock) -> Int {
        var frames = 0
        while chat.needsFrames, frames < 100_000 {
            clock.advance(by: .milliseconds(16))
            chat.frame()
            frames += 1
        }
        return frames
    }

    @Test func aConversationStreamsIsSavedAndOpensAgainWithoutReplay() async throws {
        let path = folder.appendingPathComponent("conversations.sqlite").path
        try await withServer { server in
            let store = try SQLiteConversationStore(path: path)
            let conversation = try await store.createConversation()
            let clock = ManualClock()
            let chat = ChatViewModel(clock: clock, store: store, conversationID: conversation.id, open: source(server))

            let first = chat.send("How does Cadence resume an interrupted stream?")
            #expect(chat.answers.first === first && first.isEffectivelySearching && !first.showsActions)
            await chat.pendingWrites()
            guard case .completed(let completion) = first.ending else {
                Issue.record("the answer did not complete: \(String(describing: first.ending))")
                return
            }
            #expect(!first.text.isEmpty && first.text == completion.text)
            #expect(!first.sources.isEmpty && !first.stages.isEmpty)
            #expect(first.visibleText.count < first.text.count, "text is revealed by frames, not on arrival")
            #expect(first.isEffectivelySearching && !first.showsActions, "still animating")

            #expect(animate(chat, clock) > 1)
            #expect(first.visibleText == first.text && first.showsActions && !first.isEffectivelySearching)
            #expect(!first.document.blocks.isEmpty && first.committedBlockCount == first.document.blocks.count)

            // A follow-up goes out with the first exchange as history: the engine widens its search with it.
            let second = chat.send("And what happens to the text already shown?")
            await chat.pendingWrites()
            #expect(chat.answers.map(\.id) == [second.id, first.id])
            let said = second.stages.compactMap(\.stageDescription)
            #expect(
                said.contains { $0.contains("with context from “How does Cadence resume an interrupted stream?”") },
                "stages: \(said)")

            // Everything is in the file, in order, with citations tied to sources.
            let reopened = try SQLiteConversationStore(path: path)
            let saved = try #require(try await reopened.conversation(conversation.id))
            #expect(saved.title == "How does Cadence resume an interrupted stream?")
            #expect(saved.answers.map(\.id) == [first.id, second.id])
            #expect(saved.answers.map(\.state) == [.completed, .completed])
            #expect(saved.answers[0].text == first.text && saved.answers[0].sources == first.sources)
            #expect(!saved.answers[0].citations.isEmpty)
            #expect(Set(saved.answers[0].citations).isSubset(of: Set(first.sources.map(\.id))))
            #expect(saved.answers[0].followUps == first.followUps)

            // Opened again, it shows in full at once: nothing to animate.
            let restored = ChatViewModel(clock: ManualClock(), restoring: saved, store: reopened, open: source(server))
            #expect(restored.answers.map(\.id) == [second.id, first.id])
            #expect(restored.answers.allSatisfy { $0.visibleText == $0.text && $0.showsActions })
            #expect(!restored.needsFrames)
        }
    }

    @Test func cancellingKeepsThePartialTextInTheModelAndTheFile() async throws {
        let path = folder.appendingPathComponent("cancel.sqlite").path
        // The server sends a few tokens, then holds the connection open until the test is done.
        let script = FaultScript.answer(text: "Cancelling keeps every word that already arrived.", tokenCharacters: 4)
        let server = try await FaultServer.start(script: script)
        let gate = FaultGate()
        server.enqueue(.stall(afterBytes: script.frames(after: 0).frameEnds[8], gate: gate))
        let store = try SQLiteConversationStore(path: path)
        let conversation = try await store.createConversation()
        let url = server.baseURL
        let chat = ChatViewModel(
            clock: ManualClock(), store: store, conversationID: conversation.id, checkpointInterval: .zero,
            open: ChatViewModel.source { AnswerStream(request: $0, transport: SSETransport(baseURL: url)) })
        let answer = chat.send("What is BM25?")
        await gate.reached.wait()
        for _ in 0..<1_000_000 where answer.text.count < 8 { await Task.yield() }
        #expect(answer.text.count >= 8)

        chat.cancel(answer.id)
        await chat.pendingWrites()
        gate.release()
        await server.shutdown()
        guard case .cancelled(let partial) = answer.ending else {
            Issue.record("not cancelled: \(String(describing: answer.ending))")
            return
        }
        #expect(partial == answer.text && script.text.hasPrefix(partial))
        let saved = try #require(try await store.conversation(conversation.id)?.answers.first)
        #expect(saved.state == .cancelled && saved.text == partial)
        #expect(try await store.conversations().first?.lastAnswerState == .cancelled)
    }
}
