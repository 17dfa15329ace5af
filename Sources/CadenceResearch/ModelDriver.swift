import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceSearch

/// A machine that model calls drive, one at a time: ``ChatMachine`` and ``ResearchMachine``. One
/// loop (``ModelDriver``) runs either, and a call's end is read the same way for both.
protocol ModelCallingMachine {
    associatedtype Action
    associatedtype Call: ModelCallProgress
    var nextDeadline: Duration? { get }
    /// The model call in flight, if any.
    var currentCall: Call? { get }
    mutating func start(now: Duration) -> [Action]
    mutating func deadlinePassed(now: Duration) -> [Action]
    mutating func modelEvent(_ event: ModelEvent, now: Duration) -> [Action]
    mutating func searchCompleted(_ outcomes: [SearchOutcome], now: Duration) -> [Action]
    mutating func pagesRead(_ readings: [PageReading], now: Duration) -> [Action]
    mutating func cancel() -> [Action]
    /// The call failed: tried again if it may be, else the answer ends with `error`.
    mutating func callFailed(_ call: Call, _ failure: ModelCallFailure, now: Duration) -> [Action]
    /// The call finished with `finish`: the answer goes on, or completes.
    mutating func callFinished(_ call: Call, finish: FinishReason, now: Duration) -> [Action]
}

/// What a model call reported about its own end while it streamed.
protocol ModelCallProgress {
    /// A failure reported inside the stream, waiting for its end.
    var streamError: ModelError? { get }
    /// The finish reason of choice 0.
    var finish: FinishReason? { get }
}

extension ModelCallingMachine {
    /// The current model call's stream ended: it broke, or it finished.
    mutating func endCall(now: Duration) -> [Action] {
        guard let call = currentCall else { return [] }
        return switch ModelCallEnding(streamError: call.streamError, finish: call.finish) {
        case .broken(let failure): callFailed(call, failure, now: now)
        case .finished(let finish): callFinished(call, finish: finish, now: now)
        }
    }

    /// The current model call threw before or while streaming.
    mutating func failCall(_ failure: ResearchMachine.ModelFailure, now: Duration) -> [Action] {
        guard let call = currentCall else { return [] }
        return callFailed(call, ModelCallFailure(thrown: failure), now: now)
    }

    /// What a task of the loop delivered.
    mutating func receive(_ delivery: ModelDriver.Delivery, now: Duration) -> [Action] {
        switch delivery {
        case .event(let event): modelEvent(event, now: now)
        case .ended: endCall(now: now)
        case .failed(let failure): failCall(failure, now: now)
        case .searched(let outcomes): searchCompleted(outcomes, now: now)
        case .pagesRead(let readings): pagesRead(readings, now: now)
        }
    }
}

/// The loop that owns one answer's machine, its model call (and research's searches and page
/// reads) and its timer, over a `DriverLoop` as the answer stream's driver (`AnswerStreamDriver`,
/// CadenceClient) is: output of a closed or replaced call never reaches the machine.
enum ModelDriver {
    /// What one task of the loop delivers.
    enum Delivery: Sendable {
        case event(ModelEvent)
        case ended
        case failed(ResearchMachine.ModelFailure)
        /// A round's searches ended, one outcome per source.
        case searched([SearchOutcome])
        /// A round's pages were read, one reading per URL.
        case pagesRead([PageReading])
    }

    /// What the loop does for one of the machine's actions.
    enum Step {
        /// Hand an event to the answer's consumer.
        case emit(ResearchEvent.Kind)
        /// The answer is over.
        case finish
        /// Start a model call (closing any still open), timing its first token.
        case callModel([ChatTurn], ModelRequestOptions)
        case closeModelCall
        /// Start work of the engine's own (research's searches and page reads) as the loop's task.
        case work(@Sendable (_ deliver: @escaping @Sendable (Delivery) -> Void) -> Task<Void, Never>)
    }

    /// Runs `initial` to its end: `step` says what each of its actions asks of the loop, model calls
    /// go to `client`, events to `emit`, and `observer` hears each call's first-token latency.
    static func run<Machine: ModelCallingMachine>(
        _ initial: Machine, client: ModelClient, timer: DeadlineTimer, observer: (any AnswerEngineObserver)?,
        emit: (ResearchEvent.Kind) -> Bool, step: (Machine.Action, _ machine: Machine) -> Step
    ) async {
        var machine = initial
        let loop = DriverLoop<Delivery>(timer: timer)
        let now = loop.now
        /// When the current model call was made, until its first token arrives.
        var callAwaitingFirstToken: Duration?
        defer { loop.end() }

        /// Performs the machine's actions; returns false once the answer is over.
        func perform(_ actions: [Machine.Action]) -> Bool {
            for action in actions {
                // A cancelled answer stops between steps: nothing it would still do reaches anyone.
                if Task.isCancelled { return false }
                switch step(action, machine) {
                case .emit(let event):
                    guard emit(event) else { return false }
                case .finish:
                    return false
                case .callModel(let turns, let options):
                    callAwaitingFirstToken = now()
                    loop.start { startCall(turns, options: options, client: client, deliver: $0) }
                case .closeModelCall:
                    loop.closeTask()
                    callAwaitingFirstToken = nil
                case .work(let make):
                    loop.start(make)
                }
            }
            loop.keep(machine.nextDeadline)
            return true
        }

        guard perform(machine.start(now: .zero)) else { return }
        let over = await loop.run(deadlinePassed: { perform(machine.deadlinePassed(now: now())) }) { delivery in
            if case .event(let event) = delivery, event.isToken, let madeAt = callAwaitingFirstToken {
                callAwaitingFirstToken = nil
                observer?.modelFirstToken(after: now() - madeAt)
            }
            return perform(machine.receive(delivery, now: now()))
        }
        // The consumer went away (the answer was cancelled): close the model call.
        if !over { _ = machine.cancel() }
    }

    /// Streams one model call in a task of its own and delivers what it reads. Cancelling the task
    /// closes the model's HTTP request.
    static func startCall(
        _ turns: [ChatTurn], options: ModelRequestOptions, client: ModelClient,
        deliver: @escaping @Sendable (Delivery) -> Void
    ) -> Task<Void, Never> {
        Task {
            do {
                for try await event in client.stream(turns, options: options) {
                    deliver(.event(event))
                }
                if !Task.isCancelled { deliver(.ended) }
            } catch {
                if Task.isCancelled { return }
                deliver(.failed(failure(error)))
            }
        }
    }

    static func failure(_ error: any Error) -> ResearchMachine.ModelFailure {
        guard let error = error as? CadenceClientError else {
            return ResearchMachine.ModelFailure(message: "\(error)", retryable: false)
        }
        return ResearchMachine.ModelFailure(
            message: error.message, retryable: error.shouldRetry,
            retryAfter: error.retryAfter, status: error.status)
    }
}

extension ModelEvent {
    /// Whether the event is a token the model wrote, for the first-token latency.
    var isToken: Bool {
        switch self {
        case .text(let text, _), .reasoning(let text, _), .refusal(let text, _): !text.isEmpty
        case .toolCall: true
        case .usage, .finish, .error: false
        }
    }
}
