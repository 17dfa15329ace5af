public import CadenceCore

/// One answer, delivered reliably: every character exactly once and exactly one terminal update
/// (completed, failed or cancelled), whatever the network does.
///
/// `AnswerStream` drives `AnswerStreamMachine` (the pure state machine in CadenceCore) over a
/// ``ResearchTransport``: it opens connections, resumes them after drops, retries with backoff, and
/// fires the timeouts on the injected clock.
///
/// ```swift
/// let answer = AnswerStream(
///     request: AnswerRequest(query: "How does resume work?"),
///     transport: SSETransport(baseURL: "http://127.0.0.1:8080"))
/// for await update in answer {
///     switch update {
///     case .textAppended(let text): print(text, terminator: "")
///     case .reconnecting(let attempt, _): print("\n(reconnecting, attempt \(attempt))")
///     case .completed(let completion): print("\n\(completion.sources.count) sources")
///     case .failed(let failure): print("\nfailed: \(failure.message)")
///     default: break
///     }
/// }
/// ```
///
/// Cancelling the task that iterates it (or leaving the loop early) cancels this answer only: it
/// closes its connection and, with ``cancelsOnServer``, asks the server to stop producing it.
public struct AnswerStream: AsyncSequence, Sendable {
    public typealias Element = AnswerUpdate

    public var request: AnswerRequest
    public var transport: any ResearchTransport
    public var configuration: ReliabilityConfiguration
    /// When the reader stops before the answer ended, also cancel it on the server
    /// (``ResearchTransport/cancelAnswer(id:)``), so a model stops writing what nobody reads.
    /// `false` only disconnects: the server goes on, and the answer can be resumed later.
    public var cancelsOnServer: Bool
    let clock: any Clock<Duration>
    let makeRandom: @Sendable () -> any RandomNumberGenerator & Sendable

    public init(
        request: AnswerRequest,
        transport: any ResearchTransport,
        configuration: ReliabilityConfiguration = ReliabilityConfiguration(),
        cancelsOnServer: Bool = true,
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> any RandomNumberGenerator & Sendable = { SystemRandomNumberGenerator() }
    ) {
        self.request = request
        self.transport = transport
        self.configuration = configuration
        self.cancelsOnServer = cancelsOnServer
        self.clock = clock
        self.makeRandom = random
    }

    public func makeAsyncIterator() -> AsyncStream<AnswerUpdate>.Iterator {
        let (updates, continuation) = AsyncStream<AnswerUpdate>.makeStream(bufferingPolicy: .unbounded)
        // Counted until the driver ends, so that a process can wait for it (`waitUntilAllEnded()`).
        LiveAnswerStreams.shared.begin()
        let driver = Task {
            await AnswerStreamDriver.run(self, clock: clock, updates: continuation)
            LiveAnswerStreams.shared.end()
        }
        continuation.onTermination = { _ in driver.cancel() }
        return updates.makeAsyncIterator()
    }

    /// Returns once every answer stream of this process has ended. A stream whose reader left (a
    /// cancelled task, a loop left early) ends once it has asked its server to cancel the answer
    /// (``cancelsOnServer``; the request gives up after 5 s). Call it before a process exits after
    /// cancelling its answers, as a command does on Ctrl-C: a server keeps producing an answer
    /// whose reader only disconnected, so exiting before the `DELETE` goes out would leave a model
    /// writing what nobody reads. A stream still being read is waited for too, to its end; the
    /// wait also ends when the calling task is cancelled.
    ///
    /// ```swift
    /// for await update in AnswerStream(request: request, transport: transport) { … }  // Ctrl-C ends it
    /// await AnswerStream.waitUntilAllEnded()
    /// exit(130)
    /// ```
    public static func waitUntilAllEnded() async {
        await LiveAnswerStreams.shared.waitUntilNonePending()
    }
}

/// The loop that owns one answer's machine, connection and timer. Every input arrives on one
/// channel, tagged with the connection it belongs to, so a late event from a closed or replaced
/// connection is dropped before it reaches the machine.
enum AnswerStreamDriver {
    enum Input: Sendable {
        case opened(connection: Int, answerID: String?)
        case item(connection: Int, TransportItem)
        case closed(connection: Int)
        case failed(connection: Int, ConnectionFailure)
        case deadline
    }

    static func run<C: Clock<Duration>>(
        _ stream: AnswerStream, clock: C, updates: AsyncStream<AnswerUpdate>.Continuation
    ) async {
        var timer = DeadlineTimer(clock)
        let now = timer.now
        let (inputs, inputContinuation) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
        var machine = AnswerStreamMachine(configuration: stream.configuration, random: stream.makeRandom())
        var connectionTask: Task<Void, Never>?
        var connectionNumber = 0
        var answerID: String?

        defer {
            connectionTask?.cancel()
            timer.cancel()
            inputContinuation.finish()
            updates.finish()
        }

        /// Performs the machine's actions; returns false once a terminal update went out.
        func perform(_ actions: [AnswerStreamMachine.Action]) -> Bool {
            for action in actions {
                switch action {
                case .emit(let update):
                    updates.yield(update)
                    if update.isTerminal { return false }
                case .closeConnection:
                    connectionTask?.cancel()
                    connectionTask = nil
                    connectionNumber += 1
                case .connect(let cursor):
                    connectionTask?.cancel()
                    connectionNumber += 1
                    connectionTask = openConnection(
                        number: connectionNumber, stream: stream,
                        resume: cursor,
                        inputs: inputContinuation)
                }
            }
            timer.keep(machine.nextDeadline) { inputContinuation.yield(.deadline) }
            return true
        }

        guard perform(machine.start(now: .zero)) else { return }
        for await input in inputs {
            let actions: [AnswerStreamMachine.Action]
            switch input {
            case .deadline:
                timer.fired()
                actions = machine.deadlinePassed(now: now())
            case .opened(let number, let id) where number == connectionNumber:
                answerID = id ?? answerID
                actions = machine.connected(answerID: id, now: now())
            case .item(let number, .event(let event)) where number == connectionNumber:
                actions = machine.received(event, now: now())
            case .item(let number, .keepalive) where number == connectionNumber:
                actions = machine.keepAliveReceived(now: now())
            case .closed(let number) where number == connectionNumber:
                actions = machine.connectionClosed(now: now())
            case .failed(let number, let failure) where number == connectionNumber:
                actions = machine.connectionFailed(failure, now: now())
            default:
                continue  // from a connection that is no longer current
            }
            guard perform(actions) else { return }
        }
        // The consumer went away: this answer is cancelled, here and (if asked) on the server.
        _ = perform(machine.cancel(now: now()))
        if stream.cancelsOnServer, let answerID {
            // In a task of its own: this one is cancelled, and the request must still go out. This
            // driver ends when it has (`AnswerStream.waitUntilAllEnded()` waits for that).
            let transport = stream.transport
            await Task { try? await transport.cancelAnswer(id: answerID) }.value
        }
    }

    /// Opens one connection in a task of its own and forwards everything it delivers as inputs.
    static func openConnection(
        number: Int, stream: AnswerStream, resume: ResumeCursor?, inputs: AsyncStream<Input>.Continuation
    ) -> Task<Void, Never> {
        Task {
            let connection: TransportConnection
            do {
                connection = try await stream.transport.open(stream.request, resume: resume)
            } catch {
                if !Task.isCancelled {
                    inputs.yield(.failed(connection: number, failure(error, beforeFirstByte: true)))
                }
                return
            }
            inputs.yield(.opened(connection: number, answerID: connection.answerID))
            do {
                for try await item in connection.items {
                    inputs.yield(.item(connection: number, item))
                }
                if !Task.isCancelled { inputs.yield(.closed(connection: number)) }
            } catch {
                if !Task.isCancelled {
                    inputs.yield(.failed(connection: number, failure(error, beforeFirstByte: false)))
                }
            }
        }
    }

    static func failure(_ error: any Error, beforeFirstByte: Bool) -> ConnectionFailure {
        guard let error = error as? CadenceClientError else {
            return .transport("\(error)", beforeFirstByte: beforeFirstByte)
        }
        let retryable = error.code == .transport || error.retryable
        return ConnectionFailure(
            message: error.message, retryable: retryable, retryAfter: error.retryAfter, status: error.status,
            beforeFirstByte: beforeFirstByte, exceededLimit: error.exceededLimit)
    }
}
