public import Foundation
import GRDB

/// Search responses and read pages kept in a SQLite file for a while (`--cache-ttl`, an hour by
/// default), so that a follow-up question does not ask the same service or page again.
///
/// Entries are text under a key (``key(method:url:body:)`` for a request); an entry older than
/// the time to live is never served, and expired entries are deleted as new ones are stored.
/// The cache is an optimisation: a file that cannot be read or written at run time only makes a
/// lookup miss. Time is read from the injected `now`, so tests move it by hand.
///
/// ```swift
/// let cache = try ResponseCache(path: "/tmp/cache.sqlite", timeToLive: .seconds(3600))
/// await cache.store("{…}", for: "GET https://searx.example/search?q=sse&format=json")
/// await cache.value(for: "GET https://searx.example/search?q=sse&format=json")   // "{…}"
/// ```
public final class ResponseCache: Sendable {
    /// The database file.
    public let path: String
    /// How long an entry is served after it was stored.
    public let timeToLive: Duration
    private let queue: DatabaseQueue
    private let now: @Sendable () -> Date

    /// Opens (or creates, with its folder) the cache file at `path`; throws when it cannot.
    public init(path: String, timeToLive: Duration, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.path = path
        self.timeToLive = timeToLive
        self.now = now
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.label = "Cadence.responseCache"
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: responses") { db in
            try db.execute(
                sql: """
                    CREATE TABLE response (
                      key TEXT PRIMARY KEY NOT NULL,
                      value TEXT NOT NULL,
                      stored_at REAL NOT NULL
                    );
                    CREATE INDEX response_by_age ON response (stored_at);
                    """)
        }
        try migrator.migrate(queue)
    }

    /// The text stored under `key`, unless it is older than ``timeToLive`` (or the file failed).
    public func value(for key: String) async -> String? {
        let oldest = oldestServed
        return try? await queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM response WHERE key = ? AND stored_at > ?", arguments: [key, oldest])
        }
    }

    /// Stores `value` under `key`, replacing what was there, and deletes the expired entries.
    public func store(_ value: String, for key: String) async {
        let (stamp, oldest) = (now().timeIntervalSince1970, oldestServed)
        _ = try? await queue.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO response (key, value, stored_at) VALUES (?, ?, ?)",
                arguments: [key, value, stamp])
            try db.execute(sql: "DELETE FROM response WHERE stored_at <= ?", arguments: [oldest])
        }
    }

    /// The number of entries in the file, expired or not.
    public func count() async -> Int {
        (try? await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM response") ?? 0 }) ?? 0
    }

    /// Entries stored at or before this moment (seconds since 1970) are expired.
    private var oldestServed: Double {
        now().timeIntervalSince1970 - timeToLive.seconds
    }

    /// The key of a request: its method, its URL without an `api_key` query value (so that no key
    /// is written to the file, and a new key still finds the old answers), and its body.
    public static func key(method: String, url: String, body: String? = nil) -> String {
        var shown = url
        if var parts = URLComponents(string: url), let items = parts.queryItems,
            items.contains(where: { $0.name == "api_key" })
        {
            parts.queryItems = items.filter { $0.name != "api_key" }
            shown = parts.string ?? url
        }
        return "\(method) \(shown)" + (body.map { "\n" + $0 } ?? "")
    }
}
