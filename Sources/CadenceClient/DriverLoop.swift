/// The loop of a driver that runs a pure machine (``AnswerStreamMachine``, the research machine):
/// one input channel, the machine's one deadline timer, and one current task (a connection, a model
/// call) whose deliveries carry its number, so that what a closed or replaced task still delivers
/// never reaches the machine.
///
/// ```swift
/// let loop = DriverLoop<ConnectionEvent>(timer: DeadlineTimer(clock))
/// defer { loop.end() }
/// func perform(_ actions: [Action]) -> Bool {
///     // … .connect: loop.start { deliver in openConnection(deliver) }; .closeConnection: loop.closeTask()
///     loop.keep(machine.nextDeadline)
///     return true  // false once the machine is done
/// }
/// guard perform(machine.start(now: .zero)) else { return }
/// let done = await loop.run(
///     deadlinePassed: { perform(machine.deadlinePassed(now: loop.now())) },
///     delivered: { event in perform(machine.handle(event, now: loop.now())) })
/// if !done { /* the consumer went away: cancel the machine */ }
/// ```
package final class DriverLoop<Delivery: Sendable> {
    private enum Input: Sendable {
        case deadline
        case delivery(task: Int, Delivery)
    }

    /// The time since the timer's start, the machine's time axis.
    package let now: @Sendable () -> Duration
    private let inputs: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private var timer: DeadlineTimer
    private var current = NumberedTask()

    package init(timer: DeadlineTimer) {
        now = timer.now
        self.timer = timer
        (inputs, continuation) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Cancels the current task, if any, and starts the next: `make` gets the function that delivers
    /// to this loop on the new task's behalf.
    package func start(_ make: (_ deliver: @escaping @Sendable (Delivery) -> Void) -> Task<Void, Never>) {
        let continuation = continuation
        current.start { number in make { continuation.yield(.delivery(task: number, $0)) } }
    }

    /// Cancels the current task; what it still delivers is dropped.
    package func closeTask() {
        current.close()
    }

    /// Keeps the timer set for the machine's next deadline (see ``DeadlineTimer/keep(_:fire:)``).
    package func keep(_ deadline: Duration?) {
        let continuation = continuation
        timer.keep(deadline) { continuation.yield(.deadline) }
    }

    /// Hands the machine each deadline and each delivery of the current task, until a handler
    /// returns false (the machine is done: returns true) or the driver's task is cancelled (the
    /// consumer went away: returns false).
    package func run(deadlinePassed: () -> Bool, delivered: (Delivery) -> Bool) async -> Bool {
        for await input in inputs {
            switch input {
            case .deadline:
                timer.fired()
                guard deadlinePassed() else { return true }
            case .delivery(let task, let delivery):
                guard task == current.number else { continue }  // from a task no longer current
                guard delivered(delivery) else { return true }
            }
        }
        return false
    }

    /// Cancels the current task and the timer, and closes the input channel.
    package func end() {
        current.cancel()
        timer.cancel()
        continuation.finish()
    }
}
