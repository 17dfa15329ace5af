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
    /// The group that counts this stream until its driver ends, for a process that waits for its
    /// streams before it exits (``AnswerStreamGroup/waitUntilAllEnded()``).
    public var group: AnswerStreamGroup?
    let clock: any Clock<Duration>
    let makeRandom: @Sendable () -> any RandomNumberGenerator & Sendable

    public init(
        request: AnswerRequest,
        transport: any ResearchTransport,
        configuration: ReliabilityConfiguration = ReliabilityConfiguration(),
        cancelsOnServer: Bool = true,
        group: AnswerStreamGroup? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> any RandomNumberGenerator & Sendable = { SystemRandomNumberGenerator() }
    ) {
        self.request = request
        self.transport = transport
        self.configuration = configuration
        self.cancelsOnServer = cancelsOnServer
        self.group = group
        self.clock = clock
        self.makeRandom = random
    }

    public func makeAsyncIterator() -> Iterator {
        // Counted until the driver ends, so that a process can wait for it (`waitUntilAllEnded()`).
        group?.begin()
        let channel = AnswerUpdateChannel()
        let driver = Task { [self, group] in
            await AnswerStreamDriver.run(self, clock: clock, emit: channel.yield)
            group?.end()
            channel.finish()
        }
        channel.onCancel { driver.cancel() }
        return Iterator(channel)
    }
}

/// The loop that owns one answer's machine, connection and timer (a ``DriverLoop``): everything a
/// connection delivers is tagged with it, so a late event from a closed or replaced connection is
/// dropped before it reaches the machine.
///
/// The model engines' driver (`ModelDriver`, in CadenceResearch) is built the same way: each ends
/// its `perform` by keeping the timer, then starts the machine and hands
/// ``DriverLoop/run(deadlinePassed:delivered:)`` its deliveries. What the two share is the loop's
/// protocol, and the loop itself is already one type.
enum AnswerStreamDriver {
    /// What one connection delivers.
    enum Delivery: Sendable {
        case opened(answerID: String?)
        case item(TransportItem)
        case closed
        case failed(ConnectionFailure)
    }

    static func run<C: Clock<Duration>>(
        _ stream: AnswerStream, clock: C, emit: (AnswerUpdate) -> Bool
    ) async {
        let loop = DriverLoop<Delivery>(timer: DeadlineTimer(clock))
        let now = loop.now
        var machine = AnswerStreamMachine(configuration: stream.configuration, random: stream.makeRandom())
        var answerID: String?
        defer { loop.end() }

        // `perform` and `handle` stay out of line: inlined into this async function, the machine's
        // code put its temporaries in the function's frame, which its task keeps for the whole
        // answer (12,384 bytes per stream; now a few hundred).

        /// Performs the machine's actions; returns false once a terminal update went out.
        @inline(never) func perform(_ actions: [AnswerStreamMachine.Action]) -> Bool {
            for action in actions {
                switch action {
                case .emit(let update):
                    _ = emit(update)
                    if update.isTerminal { return false }
                case .closeConnection:
                    loop.closeTask()
                case .connect(let cursor):
                    loop.start { openConnection(stream: stream, resume: cursor, deliver: $0) }
                }
            }
            loop.keep(machine.nextDeadline)
            return true
        }

        /// Hands one delivery to the machine and performs what it says.
        @inline(never) func handle(_ delivery: Delivery) -> Bool {
            switch delivery {
            case .opened(let id):
                answerID = id ?? answerID
                return perform(machine.connected(answerID: id, now: now()))
            case .item(.event(let event)):
                return perform(machine.received(event, now: now()))
            case .item(.keepalive):
                return perform(machine.keepAliveReceived(now: now()))
            case .closed:
                return perform(machine.connectionClosed(now: now()))
            case .failed(let failure):
                return perform(machine.connectionFailed(failure, now: now()))
            }
        }

        /// The machine's deadline passed.
        @inline(never) func deadlinePassed() -> Bool {
            perform(machine.deadlinePassed(now: now()))
        }

        guard perform(machine.start(now: .zero)) else { return }
        let answered = await loop.run(deadlinePassed: deadlinePassed, delivered: handle)
        guard !answered else { return }
        // The consumer went away: this answer is cancelled, here and (if asked) on the server.
        _ = perform(machine.cancel(now: now()))
        if stream.cancelsOnServer, let answerID {
            // In a task of its own: this one is cancelled, and the request must still go out. This
            // driver ends when it has (`AnswerStreamGroup.waitUntilAllEnded()` waits for that).
            let transport = stream.transport
            await Task { try? await transport.cancelAnswer(id: answerID) }.value
        }
    }

    /// Opens one connection in a task of its own and delivers everything it reads. An SSE
    /// connection's items are delivered by the event loop that decodes them; this task only waits
    /// for the connection's end.
    static func openConnection(
        stream: AnswerStream, resume: ResumeCursor?, deliver: @escaping @Sendable (Delivery) -> Void
    ) -> Task<Void, Never> {
        Task {
            let connection: TransportConnection
            do {
                connection = try await stream.transport.open(stream.request, resume: resume)
            } catch {
                if !Task.isCancelled { deliver(.failed(failure(error, beforeFirstByte: true))) }
                return
            }
            deliver(.opened(answerID: connection.answerID))
            do {
                try await connection.items.deliver { deliver(.item($0)) }
                if !Task.isCancelled { deliver(.closed) }
            } catch {
                if !Task.isCancelled { deliver(.failed(failure(error, beforeFirstByte: false))) }
            }
        }
    }

    static func failure(_ error: any Error, beforeFirstByte: Bool) -> ConnectionFailure {
        guard let error = error as? CadenceClientError else {
            return .transport("\(error)", beforeFirstByte: beforeFirstByte)
        }
        return ConnectionFailure(
            message: error.message, retryable: error.shouldRetry, retryAfter: error.retryAfter, status: error.status,
            beforeFirstByte: beforeFirstByte, exceededLimit: error.exceededLimit,
            malformedEvent: error.code == .malformedEvent && !beforeFirstByte)
    }
}
