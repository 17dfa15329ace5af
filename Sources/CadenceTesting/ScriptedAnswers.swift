public import CadenceCore
import NIOConcurrencyHelpers

/// An answer source whose streams the test feeds: each stream it opens is kept, so the test can push
/// that answer's updates when it chooses, and it records whether the consumer ended the stream.
/// Its ``source`` has the shape of `ChatViewModel.AnswerSource`.
///
/// ```swift
/// let answers = ScriptedAnswers()
/// let chat = ChatViewModel(clock: ManualClock.stepping(), open: answers.source)
/// chat.send("What is SSE?")
/// answers.push(.textAppended("Server-sent events "), .completed(completion), into: 0)
/// await settle { chat.answers[0].ending != nil }
/// ```
public final class ScriptedAnswers: Sendable {
    private struct Opened {
        var request: AnswerRequest
        var continuation: AsyncStream<AnswerUpdate>.Continuation
    }

    private struct State {
        var opened: [Opened] = []
        var ended: Set<Int> = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Opens one answer's stream, to be fed with ``push(_:into:)``.
    public var source: @Sendable (AnswerRequest) -> AsyncStream<AnswerUpdate> {
        { [self] request in
            let (stream, continuation) = AsyncStream.makeStream(of: AnswerUpdate.self)
            let index = state.withLockedValue { state in
                state.opened.append(Opened(request: request, continuation: continuation))
                return state.opened.count - 1
            }
            continuation.onTermination = { [self] _ in
                _ = state.withLockedValue { $0.ended.insert(index) }
            }
            return stream
        }
    }

    /// The requests of the streams opened so far, in opening order.
    public var requests: [AnswerRequest] { state.withLockedValue { $0.opened.map(\.request) } }

    /// How many streams were opened.
    public var count: Int { state.withLockedValue { $0.opened.count } }

    /// Whether the consumer ended stream `index` (a cancel, or it went away).
    public func isEnded(_ index: Int) -> Bool { state.withLockedValue { $0.ended.contains(index) } }

    /// Pushes updates into stream `index` (in opening order).
    public func push(_ updates: AnswerUpdate..., into index: Int = 0) {
        let continuation = state.withLockedValue { $0.opened[index].continuation }
        for update in updates { continuation.yield(update) }
    }
}

/// Lets other tasks on the main actor run until `condition` holds (or gives up after `maxTurns`
/// turns); never sleeps.
///
/// ```swift
/// await settle { chat.answers.first?.ending != nil }
/// ```
@MainActor
public func settle(maxTurns: Int = 10_000, until condition: () -> Bool) async {
    for _ in 0..<maxTurns where !condition() {
        await Task.yield()
    }
}
