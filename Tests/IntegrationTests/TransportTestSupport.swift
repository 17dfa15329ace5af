import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceTestFixtures
import CadenceTesting
import NIOConcurrencyHelpers

/// What a test read from one connection.
struct Received: Sendable {
    var events: [ResearchEvent] = []
    var keepalives = 0
    var error: (any Error)?

    var sequences: [Int] { events.compactMap(\.sequence) }
    var text: String {
        events.reduce(into: "") { text, event in
            if case .token(let token) = event.kind { text += token }
        }
    }
    var clientError: CadenceClientError? { error as? CadenceClientError }
    /// The sequenced events with the timings in `complete`'s metadata (its `budget` included)
    /// removed, to compare two runs.
    var comparableEvents: [ResearchEvent] {
        events.compactMap { event in
            guard event.sequence != nil else { return nil }
            guard case .complete(var completion) = event.kind else { return event }
            completion.metadata = completion.metadata.filter { !$0.key.hasSuffix("_ms") && $0.key != "budget" }
            return ResearchEvent(sequence: event.sequence, kind: .complete(completion))
        }
    }
    var endsWithComplete: Bool {
        if case .complete = events.last?.kind { true } else { false }
    }
    /// The `error` event the answer ended with, or `nil` when it ended otherwise.
    var finalError: (code: String, message: String)? {
        if case .error(let code, let message)? = events.last?.kind { (code, message) } else { nil }
    }
    /// The event types read, for a failure's message.
    var wireTypes: [String] { events.map(\.kind.wireType) }
}

/// Reads a connection to its end (or its error), or until `stop` says so.
func receive(
    _ connection: TransportConnection, stop: @Sendable (Received) -> Bool = { _ in false }
) async -> Received {
    var received = Received()
    do {
        for try await item in connection.items {
            switch item {
            case .event(let event): received.events.append(event)
            case .keepalive: received.keepalives += 1
            }
            if stop(received) { break }
        }
    } catch {
        received.error = error
    }
    return received
}

/// Opens a connection and reads it, turning an error from `open` into `Received.error`.
func openAndReceive(
    _ transport: any ResearchTransport, _ request: AnswerRequest, resume: ResumeCursor? = nil, stopAfter: Int? = nil
) async -> (answerID: String?, received: Received) {
    do {
        let connection = try await transport.open(request, resume: resume)
        if stopAfter == 0 { return (connection.answerID, Received()) }
        return (connection.answerID, await receive(connection) { received in stopAfter.map { received.events.count >= $0 } ?? false })
    } catch {
        return (nil, Received(error: error))
    }
}

extension ManualClock {
    /// Moves the clock on by `interval`, `times` times, each once something sleeps until the end of
    /// that period; then waits for the sleep until the end of the next one.
    func tick(every interval: Duration, times: Int) async {
        for tick in 1...times {
            await waitForSleep(until: interval * tick)
            advance(by: interval)
        }
        await waitForSleep(until: interval * (times + 1))
    }
}

/// An engine whose events the test pushes one by one; every answer shares them.
final class ScriptedEngine: AnswerEngine, Sendable {
    let stream: AsyncThrowingStream<ResearchEvent.Kind, any Error>
    let continuation: AsyncThrowingStream<ResearchEvent.Kind, any Error>.Continuation
    /// Opens when the server stops reading the engine before its end (the answer was cancelled).
    let cancelled = FaultLatch()

    init() {
        (stream, continuation) = AsyncThrowingStream<ResearchEvent.Kind, any Error>.makeStream()
        continuation.onTermination = { [cancelled] reason in
            if case .cancelled = reason { cancelled.open() }
        }
    }

    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> { stream }

    func push(_ kinds: ResearchEvent.Kind...) {
        for kind in kinds { continuation.yield(kind) }
    }

    func finish() { continuation.finish() }

    /// Whether the server cancels this engine's answer within `timeout`. The cancel reaches the
    /// engine through the server's own tasks just after the request; the deadline only turns a
    /// missing cancel into a failure instead of a hang, it is not a timing.
    func isCancelled(within timeout: Duration = .seconds(10)) async -> Bool {
        (try? await withDeadline(timeout, "the engine's cancellation") { await self.cancelled.wait() }) != nil
    }
}

/// The corpus engine with no delays: the same question gives the same events.
let instantEngine = CorpusEngine(corpus: try! Corpus.bundled(), tokenDelay: .zero, stageDelay: .zero)
