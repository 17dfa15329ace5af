import CadenceCore
import Logging
import PostgresNIO

/// The SQL of shared answers: every event of every answer in one table, in order, and each answer's
/// owner and lease beside it. The only part of the server that writes SQL.
///
/// An append is one statement: it bumps the answer's `last_sequence` under the row's lock (so the
/// owner, a node cancelling the answer and a node taking over an expired lease are serialized),
/// inserts the events with the numbers that gives, and sends `pg_notify('cadence_events',
/// 'ID:SEQUENCE')` at commit. The payloads never travel in notifications (those are limited to
/// 8,000 bytes and lost when nobody listens): readers fetch them from the table.
struct PostgresAnswerJournal: AnswerJournal {
    static let channel = "cadence_events"

    let client: PostgresClient
    let logger: Logger

    // MARK: Schema

    /// Brings the schema up to date, on a connection of its own (a node migrates before its pool runs).
    /// Several nodes may start at once: a transaction-scoped advisory lock lets one migrate while the
    /// others wait, then find nothing left to do.
    static func migrate(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS cadence_schema (version integer NOT NULL)", logger: logger)
            var current = 0
            for try await version in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM cadence_schema", logger: logger
            ).decode(Int.self) {
                current = version
            }
            for (index, statements) in Self.migrations.enumerated() where index + 1 > current {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO cadence_schema (version) VALUES (\(index + 1))", logger: logger)
            }
        }
    }

    /// Any number will do, as long as no other application of the database uses it.
    static let migrationLock = 0x6361_6465_6e63_65  // "cadence"

    /// Migrations in order; never edit one that has shipped, add another.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE cadence_answers (
                id text PRIMARY KEY,
                ordinal bigserial NOT NULL,
                conversation_id text,
                owner text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                lease_expires_at timestamptz NOT NULL,
                last_sequence bigint NOT NULL DEFAULT 0,
                ended_at timestamptz,
                ending text,
                purged boolean NOT NULL DEFAULT false
            )
            """,
            "CREATE INDEX cadence_answers_conversation ON cadence_answers (conversation_id, ordinal) WHERE conversation_id IS NOT NULL",
            "CREATE INDEX cadence_answers_running ON cadence_answers (lease_expires_at) WHERE ended_at IS NULL",
            "CREATE INDEX cadence_answers_ended ON cadence_answers (ended_at) WHERE ended_at IS NOT NULL AND NOT purged",
            """
            CREATE TABLE cadence_events (
                answer_id text NOT NULL REFERENCES cadence_answers (id) ON DELETE CASCADE,
                sequence bigint NOT NULL,
                payload text NOT NULL,
                PRIMARY KEY (answer_id, sequence)
            )
            """,
        ],
        // Each answer belongs to the subject that asked it; conversations are looked up by subject.
        [
            "ALTER TABLE cadence_answers ADD COLUMN subject text NOT NULL DEFAULT ''",
            "DROP INDEX IF EXISTS cadence_answers_conversation",
            """
            CREATE INDEX cadence_answers_subject_conversation ON cadence_answers (subject, conversation_id, ordinal)
             WHERE conversation_id IS NOT NULL
            """,
        ],
    ]

    // MARK: Answers

    func create(_ id: String, subject: String, conversationID: String?, node: String, lease: Duration) async throws {
        try await client.query(
            """
            INSERT INTO cadence_answers (id, subject, conversation_id, owner, lease_expires_at)
            VALUES (\(id), \(subject), \(conversationID), \(node), now() + make_interval(secs => \(lease.seconds)))
            """, logger: logger
        ).drain()
    }

    func append(
        _ kinds: [ResearchEvent.Kind], to id: String, expecting: Int?, onlyIfLeaseExpired: Bool
    ) async throws -> Int? {
        guard !kinds.isEmpty else { return expecting }
        let payloads = kinds.map { ResearchEvent(kind: $0).json.jsonText }
        let ending = kinds.last?.ending?.serverLabel
        let count = kinds.count
        let rows = try await client.query(
            """
            WITH answer AS (
                UPDATE cadence_answers
                   SET last_sequence = last_sequence + \(count),
                       ended_at = CASE WHEN \(ending)::text IS NULL THEN NULL ELSE now() END,
                       ending = \(ending)::text
                 WHERE id = \(id) AND ended_at IS NULL
                   AND (\(expecting)::bigint IS NULL OR last_sequence = \(expecting)::bigint)
                   AND (NOT \(onlyIfLeaseExpired) OR lease_expires_at < now())
                RETURNING last_sequence
            ), inserted AS (
                INSERT INTO cadence_events (answer_id, sequence, payload)
                SELECT \(id), answer.last_sequence - \(count) + event.ordinal, event.payload
                  FROM answer, unnest(\(payloads)::text[]) WITH ORDINALITY AS event (payload, ordinal)
                RETURNING sequence
            )
            SELECT last, pg_notify(\(Self.channel), \(id) || ':' || last)
              FROM (SELECT max(sequence) AS last FROM inserted) AS appended
             WHERE last IS NOT NULL
            """, logger: logger)
        var last: Int?
        // The second column is pg_notify's void: read only the first.
        for try await row in rows { last = try row.makeRandomAccess()[0].decode(Int.self) }
        return last
    }

    func state(of id: String) async throws -> AnswerRow? {
        var state: AnswerRow?
        for try await (subject, last, ended, purged) in try await client.query(
            "SELECT subject, last_sequence, ended_at IS NOT NULL, purged FROM cadence_answers WHERE id = \(id)",
            logger: logger
        ).decode((String, Int, Bool, Bool).self) {
            state = AnswerRow(subject: subject, lastSequence: last, ended: ended, purged: purged)
        }
        return state
    }

    func events(of id: String, after sequence: Int, through last: Int) async throws -> [(sequence: Int, kind: ResearchEvent.Kind)] {
        var events: [(sequence: Int, kind: ResearchEvent.Kind)] = []
        for try await (number, payload) in try await client.query(
            """
            SELECT sequence, payload FROM cadence_events
             WHERE answer_id = \(id) AND sequence > \(sequence) AND sequence <= \(last)
             ORDER BY sequence
            """, logger: logger
        ).decode((Int, String).self) {
            events.append((number, Self.kind(from: payload)))
        }
        return events
    }

    /// A stored payload as an event; one that no longer parses (it never should) becomes an
    /// `unknown` event rather than losing the rest of the answer.
    static func kind(from payload: String) -> ResearchEvent.Kind {
        do {
            return try ResearchEvent(json: try JSONValue(parsing: payload)).kind
        } catch {
            return .unknown(type: "unreadable", json: .object(["payload": .string(payload)]))
        }
    }

    func messages(in conversationID: String, of subject: String) async throws -> [String] {
        var ids: [String] = []
        for try await id in try await client.query(
            """
            SELECT id FROM cadence_answers WHERE subject = \(subject) AND conversation_id = \(conversationID)
             ORDER BY ordinal
            """, logger: logger
        ).decode(String.self) {
            ids.append(id)
        }
        return ids
    }

    // MARK: Leases and retention

    /// The ids returned let the node stop engines whose answers were ended elsewhere (cancelled,
    /// taken over).
    func renewLeases(of node: String, for lease: Duration) async throws -> Set<String> {
        var ids: Set<String> = []
        for try await id in try await client.query(
            """
            UPDATE cadence_answers SET lease_expires_at = now() + make_interval(secs => \(lease.seconds))
             WHERE owner = \(node) AND ended_at IS NULL
            RETURNING id
            """, logger: logger
        ).decode(String.self) {
            ids.insert(id)
        }
        return ids
    }

    func expiredLeases(limit: Int) async throws -> [String] {
        var ids: [String] = []
        for try await id in try await client.query(
            "SELECT id FROM cadence_answers WHERE ended_at IS NULL AND lease_expires_at < now() LIMIT \(limit)",
            logger: logger
        ).decode(String.self) {
            ids.append(id)
        }
        return ids
    }

    /// The rows of purged answers are deleted after another `retention`.
    func purge(olderThan retention: Duration) async throws -> Int {
        var purged = 0
        for try await _ in try await client.query(
            """
            WITH old AS (
                UPDATE cadence_answers SET purged = true
                 WHERE ended_at < now() - make_interval(secs => \(retention.seconds)) AND NOT purged
                RETURNING id
            ), deleted AS (
                DELETE FROM cadence_events WHERE answer_id IN (SELECT id FROM old) RETURNING 1
            )
            SELECT id FROM old
            """, logger: logger
        ).decode(String.self) {
            purged += 1
        }
        try await client.query(
            "DELETE FROM cadence_answers WHERE purged AND ended_at < now() - make_interval(secs => \(retention.seconds * 2))",
            logger: logger
        ).drain()
        return purged
    }
}


extension PostgresRowSequence {
    /// Reads and discards the rows, which also hands the connection back to the pool.
    func drain() async throws {
        for try await _ in self {}
    }
}
