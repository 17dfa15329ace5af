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
    /// The first pause before connecting again; it doubles up to ``maxBackoff``.
    var backoff: Duration = .milliseconds(100)
    var maxBackoff: Duration = .seconds(2)

    /// Listens until the task is cancelled, handing every signal to `handle` in order.
    func run(_ handle: @escaping @Sendable (Signal) async -> Void) async {
        var pause = backoff
        var connectionID = 0
        while !Task.isCancelled {
            connectionID += 1
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: connectionID, logger: logger)
                do {
                    try await connection.listen(on: PostgresAnswerJournal.channel) { notifications in
                        pause = backoff
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
                _ = try? await withDeadline(.seconds(5), clock: clock) { try await connection.close() }
            } catch {
                if !Task.isCancelled {
                    logger.warning("could not connect the PostgreSQL listener; trying again", metadata: ["error": "\(PostgresAnswerRegistry.describe(error))"])
                }
            }
            do { try await clock.sleep(for: pause) } catch { return }
            pause = min(pause * 2, maxBackoff)
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
