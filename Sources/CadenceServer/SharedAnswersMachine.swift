import CadenceCore

/// The decisions of answers shared by several nodes through an ``AnswerJournal``: which mirror to
/// bring up to the journal and when, what an owner appends next and with which expected sequence,
/// how long it waits after a failed append, and what every heartbeat does (renew, take over, purge,
/// evict). It takes what happened and returns what to do, like `AnswerStreamMachine`.
///
/// The machine does no I/O and reads no clock. ``PostgresAnswerRegistry`` is its driver: it calls
/// the method named after each event and performs the returned ``Action``s in order.
///
/// ```swift
/// var machine = SharedAnswersMachine(configuration: postgres, random: SplitMix64(seed: 1))
/// machine.started("a1")                           // this node owns a1 and mirrors it
/// machine.batchReady("a1")                        // [.append(answerID: "a1", expecting: 0, delay: .zero)]
/// machine.storeFailed(.append("a1"))              // [.append(answerID: "a1", expecting: 0, delay: 25…50 ms)]
/// machine.appended("a1", .committed(through: 3, ending: false))   // [] (the batch is in; next one)
/// machine.heartbeat(unread: [])                   // [.renew, .takeOver]
/// machine.leasesRenewed([])                       // [.stopEngine("a1"), .fetch(answerID: "a1", after: 3)]
/// ```
///
/// ## Driving it
/// - ``started(_:)`` when this node has created an answer and runs its engine; ``engineStopped(_:)``
///   when that engine's task is over.
/// - The owner's writer calls ``batchReady(_:)`` for each batch of events and performs its `append`
///   (waiting `delay` first), then reports ``appended(_:_:)`` or ``storeFailed(_:)``; an `append` in
///   the answer tries the same batch again, and no `append` means the batch is done. When
///   ``batchReady(_:)`` returns nothing, the writer stops.
/// - `fetch` reads the answer's row and its events after `after` into the mirror, then reports
///   ``fetched(_:_:)`` (or ``storeFailed(_:)``). At most one fetch per answer is in flight.
/// - ``heartbeat(unread:)`` every ``PostgresConfiguration/heartbeatInterval``; `renew` reports
///   ``leasesRenewed(_:)``; `takeOver` ends each expired answer and reports each one ended with
///   ``ended(_:)``, as a cancel does.
/// - ``shutDown()`` once; every later call does nothing.
struct SharedAnswersMachine: Sendable {
    /// What the driver must do, in order.
    enum Action: Sendable, Hashable {
        /// Read the answer's row and its events after `after`, apply them to the mirror, and report
        /// ``fetched(_:_:)``.
        case fetch(answerID: String, after: Int)
        /// After `delay`, append the writer's current batch, expecting the answer's last sequence to
        /// be `expecting` (so that a retry of a batch that did commit changes nothing).
        case append(answerID: String, expecting: Int, delay: Duration)
        /// Renew this node's leases on the answers it runs; report ``leasesRenewed(_:)``.
        case renew
        /// End every answer whose lease expired as `interrupted`, reporting each with ``ended(_:)``.
        case takeOver
        /// Purge the answers that ended longer than the retention ago.
        case purge
        /// Stop this node's engine of the answer: the answer has ended in the journal.
        case stopEngine(String)
        /// End the answer as `interrupted`: this node, its owner, is shutting down.
        case interrupt(String)
        /// Drop this node's mirror of the answer: no reader has asked for it in a while.
        case evict(String)
    }

    /// What an append did, as read from the journal.
    enum AppendOutcome: Sendable, Hashable {
        /// The batch committed; its last event has sequence `through`. With `ending`, it ended the answer.
        case committed(through: Int, ending: Bool)
        /// Nothing was appended (the expected sequence was not the journal's): the answer's row,
        /// read just after, or `nil` if there is none.
        case refused(AnswerRow?)
    }

    /// The database work that failed (or timed out).
    enum StoreOperation: Sendable, Hashable {
        case append(String)
        case fetch(String)
        case renew
        case takeOver
        case purge
    }

    /// An answer this node owns: where its writer stands.
    struct Writer: Sendable {
        /// The last sequence this node knows the journal holds for the answer.
        var written = 0
        /// Failed appends in a row.
        var failures = 0
        /// The answer has ended (here or elsewhere) or gone: nothing more is appended.
        var done = false
    }

    /// This node's copy of an answer (an ``AnswerLogs`` entry), as the machine knows it.
    struct Mirror: Sendable {
        var lastSequence: Int
        var finished: Bool
        var fetching = false
        /// Something moved during the fetch in flight: fetch once more when it is done.
        var dirty = false
        /// The last fetch failed: the next heartbeat reads it again, even for an answer this node
        /// owns (whose mirror otherwise fills as it appends).
        var failed = false
        /// Heartbeats since a reader last asked for it.
        var idleHeartbeats = 0
    }

    let configuration: PostgresConfiguration
    var random: any RandomNumberGenerator & Sendable
    var owned: [String: Writer] = [:]
    var mirrors: [String: Mirror] = [:]
    /// The answers owned when the last `renew` was asked for: those the journal no longer runs
    /// ended elsewhere. An answer started while the renewal is in flight is not among them.
    var renewing: Set<String> = []
    var heartbeats = 0
    private(set) var isStopped = false

    /// A machine whose backoff jitter comes from `random` (a seeded `SplitMix64` in tests).
    init(
        configuration: PostgresConfiguration,
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.random = random
    }

    // MARK: Owning

    /// This node created answer `id` and runs its engine; it mirrors the answer as it appends.
    mutating func started(_ id: String) {
        guard !isStopped else { return }
        owned[id] = Writer()
        mirrors[id] = Mirror(lastSequence: 0, finished: false)
    }

    /// The engine of answer `id` has stopped here (it ended, or was stopped).
    mutating func engineStopped(_ id: String) {
        owned[id] = nil
    }

    /// The owner has a batch of events for answer `id`: an `append`, or nothing once the answer has
    /// ended or gone (the writer stops).
    mutating func batchReady(_ id: String) -> [Action] {
        guard !isStopped, let writer = owned[id], !writer.done else { return [] }
        return [.append(answerID: id, expecting: writer.written, delay: .zero)]
    }

    /// What the owner's append to answer `id` did.
    mutating func appended(_ id: String, _ outcome: AppendOutcome) -> [Action] {
        guard var writer = owned[id] else { return [] }
        defer { owned[id] = writer }
        writer.failures = 0
        switch outcome {
        case .committed(let last, let ending):
            let expected = writer.written
            writer.written = last
            if ending { writer.done = true }
            // The owner's mirror takes the batch straight away when it holds everything before it;
            // otherwise (an earlier try committed while its reply was lost) it reads the table.
            if let mirror = mirrors[id], mirror.lastSequence == expected {
                mirrors[id]?.lastSequence = last
                if ending { mirrors[id]?.finished = true }
                return []
            }
            return schedule(id)
        case .refused(nil):
            writer.done = true
            return [.stopEngine(id)]
        case .refused(let row?):
            // The answer ended elsewhere, or an earlier try of this batch committed: the mirror
            // follows the table either way.
            let fetch = schedule(id)
            if row.ended {
                writer.done = true
                return [.stopEngine(id)] + fetch
            }
            writer.written = row.lastSequence
            return fetch
        }
    }

    /// This node appended a terminal event to answer `id` (a cancel, a take-over): its engine stops if
    /// it runs here, and the mirror reads the ending.
    mutating func ended(_ id: String) -> [Action] {
        guard !isStopped else { return [] }
        let stop: [Action] = owned[id] == nil ? [] : [.stopEngine(id)]
        return stop + schedule(id)
    }

    /// Database work failed or took too long. A failed append is tried again after the shared
    /// retry rule's backoff; a failed fetch is read again at the next heartbeat; the heartbeat's own
    /// work is simply done again at the next one.
    mutating func storeFailed(_ operation: StoreOperation) -> [Action] {
        switch operation {
        case .append(let id):
            guard !isStopped, var writer = owned[id], !writer.done else { return [] }
            writer.failures += 1
            owned[id] = writer
            let jitter = Double.random(in: 0..<1, using: &random)
            let delay = configuration.appendRetry.retryDelay(
                beforeAttempt: writer.failures + 1, retryAfter: nil, jitter: jitter)
            return [.append(answerID: id, expecting: writer.written, delay: delay)]
        case .fetch(let id):
            mirrors[id]?.fetching = false
            mirrors[id]?.failed = true
            return []
        case .renew:
            renewing = []
            return []
        case .takeOver, .purge:
            return []
        }
    }

    /// The node is shutting down: every engine it runs stops, and each of its answers is ended as
    /// `interrupted` now, so readers elsewhere hear at once rather than when the lease expires.
    mutating func shutDown() -> [Action] {
        guard !isStopped else { return [] }
        isStopped = true
        let running = owned.keys.sorted()
        owned = [:]
        return running.map(Action.stopEngine) + running.map(Action.interrupt)
    }
}
