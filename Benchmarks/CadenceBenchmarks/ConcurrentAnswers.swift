import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceClient
import CadenceCore
import CadenceUI
import NIOPosix

/// Answers streamed at once from a benchmark node over loopback, the way an app streams them: each
/// through its own `AnswerStream` (SSE) into its own `AnswerViewModel`, whose updates are applied on
/// the main actor; with a frame rate, a frame loop on the main actor also advances every answer's
/// display (its pacer and markdown), as a display link would.
///
/// After each update is applied, `observer` is told which answer changed, how many UTF-8 bytes of
/// text it had before, and the `CLOCK_MONOTONIC` time read right after the update.
@MainActor
final class ConcurrentAnswers {
    typealias Observer = @MainActor (_ answer: AnswerViewModel, _ textBytesBefore: Int, _ appliedAt: Int64) -> Void

    let answers: [AnswerViewModel]
    private var streams: [Task<Void, Never>] = []
    private var frames: Task<Void, Never>?
    private var waiter: (condition: @MainActor () -> Bool, continuation: CheckedContinuation<Void, any Error>)?

    /// Starts one answer per query on the node behind `transport`.
    init(queries: [String], transport: SSETransport, frameRate: Int = 0, observer: Observer? = nil) {
        let origin = ContinuousClock.now
        answers = queries.indices.map { AnswerViewModel(id: "answer-\($0 + 1)", query: queries[$0]) }
        for answer in answers {
            let updates = AnswerStream(request: AnswerRequest(query: answer.query), transport: transport)
            streams.append(
                Task { [weak self] in
                    for await update in updates {
                        let before = answer.text.utf8.count
                        answer.apply(update, at: origin.duration(to: .now))
                        let appliedAt = monotonicNanoseconds()
                        observer?(answer, before, appliedAt)
                        self?.checkWaiter()
                    }
                })
        }
        if frameRate > 0 { frames = frameLoop(rate: frameRate, origin: origin) }
    }

    /// Whether every answer has ended (completed, failed or cancelled).
    var allEnded: Bool { answers.allSatisfy { $0.outcome != nil } }

    /// How many answers did not complete with the server's `complete` (still streaming, failed,
    /// cancelled, or timed out).
    var incompleteCount: Int {
        answers.count { answer in
            guard case .completed(let completion) = answer.outcome else { return true }
            return completion.reason != .completed
        }
    }

    /// Waits until `condition` holds, checked after every update. Throws if an answer fails first
    /// (unless the condition is about endings), or after `limit`.
    func wait(until condition: @escaping @MainActor () -> Bool, within limit: Duration, for what: String) async throws {
        guard !condition() else { return }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self?.resumeWaiter(throwing: BenchmarkError("\(what): not done after \(limit)"))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { continuation in
            waiter = (condition, continuation)
            checkWaiter()
        }
    }

    /// Waits for every stream's task to end and stops the frame loop.
    func finish() async {
        frames?.cancel()
        for stream in streams { await stream.value }
        await frames?.value
    }

    /// Stops every stream (the answers end cancelled) and the frame loop.
    func cancel() async {
        for stream in streams { stream.cancel() }
        await finish()
    }

    private func checkWaiter() {
        guard let waiter else { return }
        if waiter.condition() {
            resumeWaiter(throwing: nil)
        } else if let failed = answers.lazy.compactMap({ $0.failureMessage }).first {
            resumeWaiter(throwing: BenchmarkError("an answer ended early: \(failed)"))
        }
    }

    private func resumeWaiter(throwing error: (any Error)?) {
        guard let waiter else { return }
        self.waiter = nil
        if let error { waiter.continuation.resume(throwing: error) } else { waiter.continuation.resume() }
    }

    /// Advances every answer that needs it, `rate` times a second on a fixed schedule (a late frame
    /// moves the schedule on rather than bunching frames).
    private func frameLoop(rate: Int, origin: ContinuousClock.Instant) -> Task<Void, Never> {
        Task { [weak self] in
            let clock = ContinuousClock()
            let period = Duration.seconds(1) / rate
            var next = clock.now
            while !Task.isCancelled {
                next = max(next + period, clock.now)
                guard (try? await clock.sleep(until: next)) != nil, let self else { return }
                let now = origin.duration(to: clock.now)
                for answer in self.answers where answer.needsFrames { answer.frame(now: now) }
            }
        }
    }
}

extension AnswerViewModel {
    /// Why the answer failed or was cancelled, or nil while it streams or once it completed.
    fileprivate var failureMessage: String? {
        switch outcome {
        case .failed(let failure): failure.message
        case .cancelled: "cancelled"
        case .interrupted: "interrupted"
        case .completed, nil: nil
        }
    }
}

/// The HTTP client of the benchmarks' answers: AsyncHTTPClient on the shared event loops, with
/// room for one connection per concurrent answer (its default keeps 8 per host, and queues the rest).
enum BenchmarkHTTPClient {
    static func make(connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, connections))
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }
}
