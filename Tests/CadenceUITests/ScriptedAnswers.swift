import CadenceCore
import CadenceUI
import Foundation

/// An answer source for tests: each opened stream is kept so the test can push its updates, and
/// records whether the consumer ended it.
final class ScriptedAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [(request: AnswerRequest, continuation: AsyncStream<AnswerUpdate>.Continuation)] = []
    private var ended: Set<Int> = []

    var source: ChatViewModel.AnswerSource {
        { [self] request in
            let (stream, continuation) = AsyncStream.makeStream(of: AnswerUpdate.self)
            let index = lock.withLock {
                opened.append((request, continuation))
                return opened.count - 1
            }
            continuation.onTermination = { [self] _ in
                _ = lock.withLock { ended.insert(index) }
            }
            return stream
        }
    }

    var requests: [AnswerRequest] { lock.withLock { opened.map(\.request) } }

    func isEnded(_ index: Int) -> Bool { lock.withLock { ended.contains(index) } }

    /// Pushes updates into stream `index` (in opening order).
    func push(_ updates: AnswerUpdate..., into index: Int) {
        let continuation = lock.withLock { opened[index].continuation }
        for update in updates { continuation.yield(update) }
    }
}

/// Lets other tasks on the main actor run until `condition` holds (or gives up after `maxTurns`
/// turns); never sleeps.
@MainActor
func settle(maxTurns: Int = 10_000, until condition: () -> Bool) async {
    for _ in 0..<maxTurns where !condition() {
        await Task.yield()
    }
}
