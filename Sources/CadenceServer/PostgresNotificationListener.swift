import CadenceClient
import CadenceCore
import Logging
import PostgresNIO

/// Follows the `cadence_events` channel on a connection of its own, and listens again after the
/// connection drops. postgres-nio does not re-`LISTEN` after a reconnect by itself, and PostgreSQL
/// drops notifications sent while nobody listens, so every time listening (re)starts the registry is
/// told ``Signal/listening``: whatever it follows may have moved meanwhile, and it re-reads the table.
struct PostgresNotificationListener: Sendable {
    enum Signal: Sendable, Equatable {
        /// `LISTEN` is in place (again): notifications may have been missed before this.
        case listening
        /// An answer's events reach `sequence` now.
        case appended(answerID: String, sequence: Int)
    }

    let configuration: PostgresConnection.Configuration
    let clock: any Clock<Duration>
    let logger: Logger
    /// How long closing a dropped connection may take (``PostgresConfiguration/storeTimeout``).
    let closeTimeout: Duration
    /// The pauses before connecting again, by the shared retry rule (only its backoff is read).
    let retry: ReliabilityConfiguration
    /// Where the backoff's jitter comes from.
    var random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()

    /// Listens until the task is cancelled, handing every signal to `handle` in order.
    func run(_ handle: @escaping @Sendable (Signal) async -> Void) async {
        var failures = 0
        var random = self.random
        var connectionID = 0
        while !Task.isCancelled {
            connectionID += 1
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: connectionID, logger: logger)
                do {
                    try await connection.listen(on: PostgresAnswerJournal.channel) { notifications in
                        failures = 0
                        await handle(.listening)
                        for try await notification in notifications {
                            if let signal = Self.parse(notification.payload) { await handle(signal) }
                        }
                    }
                } catch {
                    if !Task.isCancelled {
                        logger.warning("the PostgreSQL listener connection dropped; listening again", metadata: ["error": "\(PostgresAnswerRegistry.describe(error))"])
                    }
                }
                // Bounded, like the registry's reads: a close that never returns would end listening.
                _ = try? await withDeadline(closeTimeout, clock: clock) { try await connection.close() }
            } catch {
                if !Task.isCancelled {
                    logger.warning("could not connect the PostgreSQL listener; trying again", metadata: ["error": "\(PostgresAnswerRegistry.describe(error))"])
                }
            }
            failures += 1
            let jitter = Double.random(in: 0..<1, using: &random)
            let pause = retry.retryDelay(beforeAttempt: failures + 1, retryAfter: nil, jitter: jitter)
            do { try await clock.sleep(for: pause) } catch { return }
        }
    }

    /// `ANSWER_ID:SEQUENCE` as a signal; anything else is ignored.
    static func parse(_ payload: String) -> Signal? {
        guard let colon = payload.lastIndex(of: ":"), let sequence = Int(payload[payload.index(after: colon)...]) else {
            return nil
        }
        return .appended(answerID: String(payload[..<colon]), sequence: sequence)
    }
}
