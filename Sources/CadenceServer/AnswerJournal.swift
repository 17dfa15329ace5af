import CadenceCore

/// Where shared answers are written down: every event of every answer in order, and each answer's
/// owner and lease. ``PostgresAnswerJournal`` is the one that ships; ``PostgresAnswerRegistry``
/// sees only this protocol, so its driving of ``SharedAnswersMachine`` can run on another store.
///
/// Lease times are the store's own clock, so the nodes sharing it need not agree on the time.
protocol AnswerJournal: Sendable {
    /// Records a new answer of `subject`, produced by `node` with a lease of `lease`.
    func create(_ id: String, subject: String, conversationID: String?, node: String, lease: Duration) async throws

    /// Appends events to an answer and returns the sequence of the last one, or `nil` if nothing was
    /// appended: the answer has ended (or does not exist), or, with `expecting`, its last sequence is
    /// not the one given (``state(of:)`` tells which).
    ///
    /// - Parameters:
    ///   - kinds: the events, in order.
    ///   - id: the answer.
    ///   - expecting: the owner's idea of the answer's last sequence. It makes a retried append
    ///     idempotent: if the first try committed but its reply was lost, the retry changes nothing.
    ///   - onlyIfLeaseExpired: append only if the owner's lease has run out (taking over).
    func append(
        _ kinds: [ResearchEvent.Kind], to id: String, expecting: Int?, onlyIfLeaseExpired: Bool
    ) async throws -> Int?

    /// An answer's row, or `nil` if there is none.
    func state(of id: String) async throws -> AnswerRow?

    /// The events of an answer after `sequence` and up to `last`, oldest first.
    func events(
        of id: String, after sequence: Int, through last: Int
    ) async throws -> [(sequence: Int, kind: ResearchEvent.Kind)]

    /// The ids of the answers of `subject`'s conversation, oldest first.
    func messages(in conversationID: String, of subject: String) async throws -> [String]

    /// Renews `node`'s lease on every answer it still runs; returns the ids of those answers.
    func renewLeases(of node: String, for lease: Duration) async throws -> Set<String>

    /// Answers whose owner's lease has run out (at most `limit`).
    func expiredLeases(limit: Int) async throws -> [String]

    /// Forgets the events of answers that ended more than `retention` ago (their rows stay a while,
    /// so a late resume hears 410 Gone); returns how many answers it purged.
    func purge(olderThan retention: Duration) async throws -> Int
}

extension AnswerJournal {
    /// Appends events to an answer that has not ended, whatever its last sequence.
    func append(_ kinds: [ResearchEvent.Kind], to id: String) async throws -> Int? {
        try await append(kinds, to: id, expecting: nil, onlyIfLeaseExpired: false)
    }
}

/// An answer's row in an ``AnswerJournal``: whose it is, how far its events go, and whether it has
/// ended or been purged.
struct AnswerRow: Sendable, Hashable {
    /// Whose answer it is (the `sub` of its creator).
    var subject: String
    var lastSequence: Int
    var ended: Bool
    var purged: Bool
}

extension AnswerRow {
    /// The row of answer `id` as `subject` may see it: an answer of another subject is
    /// ``AnswerLookupError/unknown(_:)``, as one with no row; a purged one is
    /// ``AnswerLookupError/gone(_:)``. With no subject, whoever's answer it is.
    static func visible(_ row: AnswerRow?, of id: String, to subject: String?) throws -> AnswerRow {
        guard let row, subject == nil || row.subject == subject else { throw AnswerLookupError.unknown(id) }
        if row.purged { throw AnswerLookupError.gone(id) }
        return row
    }

    /// Throws ``AnswerLookupError/pastEnd(_:after:lastSequence:ended:)`` when a reader's cursor
    /// `sequence` is past the answer's last event: no reader was ever sent it.
    func requireSent(_ sequence: Int, of id: String) throws {
        guard sequence <= lastSequence else {
            throw AnswerLookupError.pastEnd(id, after: sequence, lastSequence: lastSequence, ended: ended)
        }
    }
}
