import CadenceBenchmarkKit
import CadenceCore
import CadenceMarkdown
import CadenceTerminal
import CadenceUI

/// What one frame of the full-screen chat costs to find out what changed and lay it out, on a long
/// conversation: the versions the view models publish (TerminalChatApp now) against the whole
/// transcript snapshot compared with the last one and laid out again (TerminalChatApp before).
enum TranscriptBenchmark {
    static let answers = 200
    static let width = 100

    static func run(cases: [String]) {
        MainActor.assumeIsolated { measure() }
    }

    @MainActor
    static func measure() {
        let paragraph = "Cadence resumes an interrupted stream from the last event it applied [1], so nothing is lost or doubled. "
        let text = (1...6).map { "## Part \($0)\n\n" + String(repeating: paragraph, count: 4) }.joined(separator: "\n\n")
        let sources = [Source(id: "1", title: "Resuming", url: "cadence://corpus/cadence/resume.md")]
        // The newest answer is still streaming: in the second case each frame reveals a word of it.
        func conversation() -> (ChatViewModel, AnswerViewModel) {
            let restored = (0..<answers).map { index in
                AnswerViewModel(
                    id: "a\(index)", query: "Question \(index)?",
                    restoring: .completed(AnswerCompletion(reason: .completed, text: text, sources: sources)))
            }
            let streaming = AnswerViewModel(id: "streaming", query: "How does resume work?")
            streaming.apply(.textAppended(text))
            streaming.revealAll()
            let chat = ChatViewModel(
                clock: ContinuousClock(), answers: [streaming] + restored, open: { _ in AsyncStream { $0.finish() } })
            return (chat, streaming)
        }
        let (chat, streaming) = conversation()
        let (sameChat, sameStreaming) = conversation()  // the same story, for the new way
        let frames = 200
        let stopwatch = Stopwatch()

        // An idle frame: nothing changed.
        var previous = TranscriptSnapshot(chat)
        let oldIdle = stopwatch.best {
            var same = 0
            for _ in 0..<frames where TranscriptSnapshot(chat) == previous { same += 1 }
            return same
        }
        var versions = chat.answers.map(\.version)
        let newIdle = stopwatch.best {
            var same = 0
            for _ in 0..<frames where chat.answers.map(\.version) == versions { same += 1 }
            return same
        }

        // A frame in which the newest answer changed: find it, read it again, lay the transcript out.
        func reveal(_ frame: Int, in answer: AnswerViewModel) {
            answer.apply(.textAppended(frame % 20 == 0 ? "\n\nMore" : " words"))
            answer.revealAll()
        }
        var oldLayout = TranscriptLayout(colors: true)
        let oldChanged = stopwatch.best {
            var lines = 0
            for frame in 0..<frames {
                reveal(frame, in: streaming)
                let transcript = TranscriptSnapshot(chat)
                if transcript != previous {
                    // Before versions, every exchange was laid out again (committed blocks came from a cache).
                    let unversioned = TranscriptSnapshot(exchanges: transcript.exchanges.map { exchange in
                        var copy = exchange
                        copy.version = nil
                        return copy
                    })
                    lines += oldLayout.lines(for: unversioned, width: width).count
                    previous = transcript
                }
            }
            return lines
        }
        var newLayout = TranscriptLayout(colors: true)
        var transcript = TranscriptSnapshot(sameChat)
        versions = sameChat.answers.map(\.version)
        let newChanged = stopwatch.best {
            var lines = 0
            for frame in 0..<frames {
                reveal(frame, in: sameStreaming)
                let current = sameChat.answers.map(\.version)
                if current != versions {
                    transcript = TranscriptSnapshot(sameChat, reusing: transcript)
                    lines += newLayout.lines(for: transcript, width: width).count
                    versions = current
                }
            }
            return lines
        }
        guard oldIdle.result == frames, newIdle.result == frames, oldChanged.result == newChanged.result,
            newChanged.result >= frames * answers
        else {
            print("transcript: the two ways disagree (\(oldIdle.result), \(newIdle.result), \(oldChanged.result), \(newChanged.result)); not measured")
            return
        }
        let perFrame = { (seconds: Double) in formatted(seconds / Double(frames) * 1e6, decimals: 1) + " µs" }
        let figures = ReportedFigures.shared
        figures.add("idle_frame_us_snapshots", oldIdle.seconds / Double(frames) * 1e6, decimals: 1)
        figures.add("idle_frame_us_versions", newIdle.seconds / Double(frames) * 1e6, decimals: 1)
        figures.add("changed_frame_us_snapshots", oldChanged.seconds / Double(frames) * 1e6, decimals: 1)
        figures.add("changed_frame_us_versions", newChanged.seconds / Double(frames) * 1e6, decimals: 1)
        print("Full-screen chat, \(answers) answers of \(text.utf8.count) bytes and one streaming, \(width) columns, per frame, best of \(stopwatch.repetitions) runs")
        print("frame                          snapshot + ==, layout all   versions, layout what changed   ratio")
        print(
            leftAligned("nothing changed", 31) + padded(perFrame(oldIdle.seconds), 27) + padded(perFrame(newIdle.seconds), 32)
                + padded(formatted(oldIdle.seconds / newIdle.seconds, decimals: 0) + "×", 8))
        print(
            leftAligned("the newest answer changed", 31) + padded(perFrame(oldChanged.seconds), 27)
                + padded(perFrame(newChanged.seconds), 32) + padded(formatted(oldChanged.seconds / newChanged.seconds, decimals: 1) + "×", 8))
    }
}
