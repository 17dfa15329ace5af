extension SharedAnswersMachine {
    // MARK: Mirrors

    /// A reader asks for answer `id`: `true` if this node mirrors it (and it is no longer idle),
    /// `false` if the driver must load it first (then report ``loaded(_:_:)``).
    mutating func followed(_ id: String) -> Bool {
        guard mirrors[id] != nil else { return false }
        mirrors[id]?.idleHeartbeats = 0
        return true
    }

    /// The mirror of answer `id` was loaded from its row `row`. Events appended while it loaded
    /// sent notifications nobody here was waiting for, so an answer still going is fetched again.
    mutating func loaded(_ id: String, _ row: AnswerRow) -> [Action] {
        guard !isStopped, mirrors[id] == nil else { return [] }
        mirrors[id] = Mirror(lastSequence: row.lastSequence, finished: row.ended)
        return row.ended ? [] : schedule(id)
    }

    /// Listening for notifications (re)started: any notification before it may have been lost, so
    /// every mirror is compared with the journal.
    mutating func listening() -> [Action] {
        mirrors.keys.sorted().flatMap { schedule($0) }
    }

    /// The journal says answer `id`'s events reach `sequence` (a notification, or a row read for a
    /// reader): the mirror is fetched if it holds less.
    mutating func notified(_ id: String, sequence: Int) -> [Action] {
        guard let mirror = mirrors[id], sequence > mirror.lastSequence else { return [] }
        return schedule(id)
    }

    /// A fetch of answer `id` read its row (`nil`: there is none) and brought the mirror up to it.
    mutating func fetched(_ id: String, _ row: AnswerRow?) -> [Action] {
        guard var mirror = mirrors[id] else { return [] }
        var actions: [Action] = []
        if let row {
            mirror.failed = false
            mirror.lastSequence = max(mirror.lastSequence, row.lastSequence)
            if row.ended {
                mirror.finished = true
                // Ended elsewhere while this node still runs the engine: stop it.
                if owned[id] != nil { actions.append(.stopEngine(id)) }
            }
        }
        if mirror.dirty, !mirror.finished, row != nil, !isStopped {
            mirror.dirty = false
            actions.append(.fetch(answerID: id, after: mirror.lastSequence))
        } else {
            mirror.fetching = false
        }
        mirrors[id] = mirror
        return actions
    }

    /// Brings a mirror up to the journal, with at most one fetch in flight per answer: a signal during
    /// a fetch makes it run once more when it is done.
    mutating func schedule(_ id: String) -> [Action] {
        guard !isStopped, var mirror = mirrors[id], !mirror.finished else { return [] }
        defer { mirrors[id] = mirror }
        if mirror.fetching {
            mirror.dirty = true
            return []
        }
        mirror.fetching = true
        return [.fetch(answerID: id, after: mirror.lastSequence)]
    }

    // MARK: Heartbeat

    /// A heartbeat passed; `unread` are the mirrors no reader is waiting on now.
    ///
    /// In order: the safety net under notifications (every unfinished mirror of an answer produced
    /// elsewhere is fetched, and so is every mirror whose last fetch failed: an owner whose final
    /// append committed while its connection was cut learns the ending only by reading it back);
    /// the eviction of mirrors idle for ``PostgresConfiguration/idleHeartbeatsBeforeEviction``
    /// heartbeats; renewing this node's leases; taking over expired ones; and, every
    /// ``PostgresConfiguration/heartbeatsBetweenPurges`` heartbeats, a purge. The evictions come
    /// before any database work, so that no reader can arrive between the decision and the eviction.
    mutating func heartbeat(unread: Set<String>) -> [Action] {
        guard !isStopped else { return [] }
        heartbeats += 1
        var actions: [Action] = []
        for id in mirrors.keys.sorted() where owned[id] == nil || mirrors[id]?.failed == true {
            actions += schedule(id)
        }
        for id in mirrors.keys.sorted() where owned[id] == nil && mirrors[id]?.fetching == false {
            mirrors[id]?.idleHeartbeats += 1
            if let mirror = mirrors[id], mirror.idleHeartbeats >= configuration.idleHeartbeatsBeforeEviction,
                unread.contains(id)
            {
                mirrors[id] = nil
                actions.append(.evict(id))
            }
        }
        if !owned.isEmpty {
            renewing = Set(owned.keys)
            actions.append(.renew)
        }
        actions.append(.takeOver)
        if heartbeats % configuration.heartbeatsBetweenPurges == 0 { actions.append(.purge) }
        return actions
    }

    /// The journal renewed this node's leases on `running`: an answer this node ran when the renewal
    /// was asked for but the journal no longer runs was cancelled or taken over elsewhere.
    mutating func leasesRenewed(_ running: Set<String>) -> [Action] {
        let endedElsewhere = renewing.subtracting(running).sorted()
        renewing = []
        return endedElsewhere.flatMap { ended($0) }
    }
}
