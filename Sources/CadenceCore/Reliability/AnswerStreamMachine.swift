/// The pure core of an answer stream: it takes what happened (connection events, research events,
/// deadlines) and says what to do next, so that every answer ends in exactly one terminal update
/// with every character applied exactly once.
///
/// The machine does no I/O and reads no clock. Its owner (the driver) holds a transport and a
/// clock, calls the method named after each event with `now`, the time since the answer started on
/// the driver's clock, and performs the returned ``Action``s in order. When nothing happens, the
/// driver sleeps until ``nextDeadline`` and then calls ``deadlinePassed(now:)``.
///
/// ```swift
/// var machine = AnswerStreamMachine(configuration: .init(), random: SplitMix64(seed: 1))
/// machine.start(now: .zero)                                   // [.connect(resume: nil)]
/// machine.connected(answerID: "a1", now: .milliseconds(40))   // []
/// machine.received(ResearchEvent(sequence: 1, kind: .token("Hi")), now: .seconds(1))
///                                                             // [.emit(.textAppended("Hi"))]
/// machine.received(ResearchEvent(sequence: 2, kind: .complete(Completion())), now: .seconds(2))
///                                                             // [] (stored, not acted on)
/// machine.connectionClosed(now: .seconds(2))                  // [.emit(.completed(…))]
/// ```
///
/// ## Driving it
/// - `now` is `clock.now - startInstant` on one injected clock, never decreasing. Pass `.zero` to
///   ``start(now:)``; every timeout is measured on this axis.
/// - Perform actions in order: `connect` opens a transport connection (resuming when it carries a
///   cursor), `closeConnection` stops reading the current one, `emit` yields an update.
/// - Report, for the current connection only: ``connected(answerID:now:)`` when it opens, each
///   event with ``received(_:now:)``, each keepalive with ``keepAliveReceived(now:)``, and its end
///   with ``connectionClosed(now:)`` (clean end) or ``connectionFailed(_:now:)`` (a thrown error).
///   Stop reading a connection after `closeConnection`, a failure or a terminal update.
/// - Between calls, race the connection against `clock.sleep(until: start + nextDeadline)`; when the
///   sleep wins, call ``deadlinePassed(now:)``. Re-read ``nextDeadline`` after every call. While a
///   retry waits there is no connection, so only the sleep runs.
/// - Stop when an emitted update ``AnswerUpdate/isTerminal`` (``isFinished`` is then `true`); later
///   calls do nothing. Each answer has its own machine; machines share nothing.
///
/// The outcome depends only on the calls and their `now`: every method first ends the answer if a
/// timeout was already due, so a late timer cannot change what happens.
public struct AnswerStreamMachine: Sendable {
    /// What the driver must do, in order.
    public enum Action: Sendable, Hashable {
        /// Open a connection: a new answer when `resume` is `nil`, otherwise resume after the cursor.
        /// Then report ``connected(answerID:now:)``, events, and how the connection ended.
        case connect(resume: ResumeCursor?)
        /// Close the current connection and deliver nothing more from it. Harmless if it is already closed.
        case closeConnection
        /// Deliver this update to the consumer.
        case emit(AnswerUpdate)
    }

    /// One connection attempt.
    struct Connection: Sendable {
        /// The cursor this connection resumed from; `nil` for a new answer.
        var resumedFrom: ResumeCursor?
        /// Whether ``AnswerUpdate/reconnecting(attempt:after:)`` came before it.
        var isRetry: Bool
        /// The last byte of any kind, or when the connection was asked for.
        var lastByteAt: Duration
        var sawBytes = false
    }

    enum State: Sendable {
        case idle
        /// `connect` was returned; waiting for `connected`.
        case connecting(Connection)
        case streaming(Connection)
        /// Waiting out a retry delay; no connection is open.
        case waitingToReconnect(until: Duration)
        case finished(AnswerUpdate)
    }

    public let configuration: ReliabilityConfiguration
    var state: State = .idle
    var content = AnswerContent()
    var random: any RandomNumberGenerator & Sendable
    var startedAt: Duration = .zero
    /// The last content event (or the start): the idle timeout runs from here.
    var lastContentAt: Duration = .zero
    /// Whether the idle timeout already replaced the connection since the last content: it does
    /// so once, and the next idle timeout ends the answer.
    var resumedForIdle = false
    /// The last sequence applied when a malformed event ended a connection: the resume after it is
    /// the one chance; a malformed event there again ends the answer.
    var malformedAfter: Int?
    /// Connection attempts in a row without progress, the current one included.
    public internal(set) var attempt = 0
    /// Every connection asked for, over the answer's life.
    public internal(set) var connectionCount = 0

    /// A machine whose retry jitter comes from `random` (pass a seeded ``SplitMix64`` in tests).
    public init(configuration: ReliabilityConfiguration = .init(), random: some RandomNumberGenerator & Sendable) {
        self.configuration = configuration
        self.random = random
    }

    /// A machine whose retry jitter comes from the system's generator.
    public init(configuration: ReliabilityConfiguration = .init()) {
        self.init(configuration: configuration, random: SystemRandomNumberGenerator())
    }

    /// Every character of text applied so far, each exactly once.
    public var text: String { content.text }
    /// The sources so far, deduplicated by URL.
    public var sources: [Source] { content.sources }
    /// The server's `complete` event, once received (the answer may still be streaming).
    public var storedCompletion: Completion? { content.storedCompletion }
    /// The server's id for the answer, once a connection gave one.
    public var answerID: String? { content.answerID }
    /// Where a resume would start now, or `nil` when the answer cannot be resumed.
    public var resumeCursor: ResumeCursor? { content.resumeCursor }

    /// The one terminal update, once the answer has ended.
    public var terminalUpdate: AnswerUpdate? {
        if case .finished(let update) = state { return update }
        return nil
    }

    public var isFinished: Bool { terminalUpdate != nil }

    /// When the driver must call ``deadlinePassed(now:)`` if nothing else happens first: the
    /// earliest of the running timeouts and the retry wait. `nil` before ``start(now:)`` and after the end.
    /// Recompute it after every call: any call may move it.
    public var nextDeadline: Duration? {
        var earliest = earliestTimeout?.at
        func consider(_ deadline: Duration) {
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        switch state {
        case .idle, .finished: return nil
        case .connecting(let connection), .streaming(let connection):
            if let limit = configuration.byteIdleTimeout { consider(connection.lastByteAt + limit) }
        case .waitingToReconnect(let until):
            consider(until)
        }
        return earliest
    }

    /// The earliest deadline among the timeouts that end the answer (overall, first token, idle);
    /// a tie goes to the first in that order.
    var earliestTimeout: (timeout: AnswerTimeout, at: Duration)? { earliestTimeout(includingIdle: true) }

    /// ``earliestTimeout``, optionally leaving the idle timeout out.
    func earliestTimeout(includingIdle: Bool) -> (timeout: AnswerTimeout, at: Duration)? {
        var earliest: (timeout: AnswerTimeout, at: Duration)?
        func consider(_ timeout: AnswerTimeout, _ limit: Duration?, from start: Duration) {
            guard let limit else { return }
            if earliest.map({ start + limit < $0.at }) ?? true { earliest = (timeout, start + limit) }
        }
        consider(.overall, configuration.overallTimeout, from: startedAt)
        if !content.hasToken, content.storedCompletion == nil {
            consider(.firstToken, configuration.firstTokenTimeout, from: startedAt)
        }
        if includingIdle { consider(.idle, configuration.idleTimeout, from: lastContentAt) }
        return earliest
    }

    /// The open (or opening) connection, if any.
    var connection: Connection? {
        switch state {
        case .connecting(let connection), .streaming(let connection): connection
        case .idle, .waitingToReconnect, .finished: nil
        }
    }

    /// Ends the answer with `update` (the only terminal update it will ever emit). A failure keeps the
    /// reasoning, refusal and tool calls received before it, as it keeps the text.
    mutating func finish(_ update: AnswerUpdate, closing: Bool) -> [Action] {
        var update = update
        if case .failed(let failure) = update { update = .failed(content.keeping(in: failure)) }
        state = .finished(update)
        return (closing ? [.closeConnection] : []) + [.emit(update)]
    }
}
