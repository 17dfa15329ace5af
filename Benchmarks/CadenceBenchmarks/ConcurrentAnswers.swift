import AsyncHTTPClient
import CadenceBenchmarkKit
import CadenceClient
import CadenceCore
import CadenceUI
import NIOPosix

/// Answers streamed at once from a benchmark node over loopback, the way an app streams them: each
/// through its own `AnswerStream` (SSE) into its own `AnswerViewModel`, whose updates are applied on
/// the main actor; with a frame rate, a frame loop on the main actor also advances every answer's
/// display (its pacer and markdown), as a display link would. Without view models, the updates are
/// only counted (the transport and reliability layers alone).
///
/// After each update is applied, `observer` is told which answer changed, how many UTF-8 bytes of
/// text it had before, and the `CLOCK_MONOTONIC` time read right after the update.
@MainActor
final class ConcurrentAnswers {
    typealias Observer = @MainActor (_ answer: AnswerViewModel, _ textBytesBefore: Int, _ appliedAt: Int64) -> Void

    /// Each answer's view model, in query order (none when made without view models).
    let answers: [AnswerViewModel]
    /// What each answer's updates said so far, in query order.
    let tallies: [AnswerTally]
    /// How long each frame took on the main actor.
    private(set) var frameDurations: [Duration] = []
    private var streams: [Task<Void, Never>] = []
    private var frames: Task<Void, Never>?
    private var waiter: Waiter?

    /// A wait for every answer to satisfy a condition that, once true, stays true. The answers that
    /// satisfy it are counted as their updates arrive, so checking after an update costs the same
    /// whatever the number of answers.
    private struct Waiter {
        let condition: @MainActor (AnswerTally) -> Bool
        var satisfied: Set<ObjectIdentifier>
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Starts one answer per query on the node behind `transport`.
    init(
        queries: [String], transport: SSETransport, viewModels: Bool = true, frameRate: Int = 0,
        observer: Observer? = nil
    ) {
        let origin = ContinuousClock.now
        answers = viewModels ? queries.indices.map { AnswerViewModel(id: "answer-\($0 + 1)", query: queries[$0]) } : []
        tallies = queries.map { _ in AnswerTally() }
        for (index, query) in queries.enumerated() {
            let updates = AnswerStream(request: AnswerRequest(query: query), transport: transport)
            let (answer, tally) = (viewModels ? answers[index] : nil, tallies[index])
            streams.append(
                Task { [weak self] in
                    for await update in updates {
                        if let answer {
                            let before = answer.text.utf8.count
                            answer.apply(update, at: origin.duration(to: .now))
                            let appliedAt = monotonicNanoseconds()
                            observer?(answer, before, appliedAt)
                        }
                        tally.count(update)
                        self?.updated(tally)
                    }
                })
        }
        if frameRate > 0 { frames = frameLoop(rate: frameRate, origin: origin) }
    }

    /// How many answers did not complete with the server's `complete` (still streaming, failed,
    /// cancelled, or timed out).
    var incompleteCount: Int { tallies.count { !$0.completed } }

    /// Waits until every answer satisfies `condition`, which must stay true once it holds. Throws if
    /// an answer ends without completing first, or after `limit`.
    func wait(
        untilEvery condition: @escaping @MainActor (AnswerTally) -> Bool, within limit: Duration, for what: String
    ) async throws {
        let satisfied = Set(tallies.filter(condition).map(ObjectIdentifier.init))
        guard satisfied.count < tallies.count else { return }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self?.resumeWaiter(throwing: BenchmarkError("\(what): not done after \(limit)"))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { continuation in
            waiter = Waiter(condition: condition, satisfied: satisfied, continuation: continuation)
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

    private func updated(_ tally: AnswerTally) {
        guard var waiter, !waiter.satisfied.contains(ObjectIdentifier(tally)) else { return }
        if waiter.condition(tally) {
            waiter.satisfied.insert(ObjectIdentifier(tally))
            self.waiter = waiter
            if waiter.satisfied.count == tallies.count { resumeWaiter(throwing: nil) }
        } else if let ending = tally.ending, !tally.completed {
            resumeWaiter(throwing: BenchmarkError("an answer ended early: \(ending)"))
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
                let start = clock.now
                let now = origin.duration(to: start)
                for answer in self.answers where answer.needsFrames { answer.frame(now: now) }
                self.frameDurations.append(start.duration(to: clock.now))
            }
        }
    }
}

/// What one answer's updates said so far: whether a research stage came, how much text, and how
/// the answer ended.
@MainActor
final class AnswerTally {
    private(set) var sawStage = false
    private(set) var textBytes = 0
    private(set) var ending: AnswerUpdate?

    /// Whether the answer ended with the server's `complete`.
    var completed: Bool {
        guard case .completed(let completion) = ending else { return false }
        return completion.reason == .completed
    }

    func count(_ update: AnswerUpdate) {
        switch update {
        case .textAppended(let text): textBytes += text.utf8.count
        case .stageChanged: sawStage = true
        case .completed, .failed, .cancelled: ending = update
        case .sourcesMerged, .reasoningAppended, .refusalAppended, .toolCallReceived, .reconnecting, .reconnected: break
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
