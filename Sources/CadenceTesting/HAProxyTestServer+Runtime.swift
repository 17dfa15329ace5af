import Foundation

extension HAProxyTestServer {
    /// The configuration: one frontend on `port`, round-robin over `servers` without stickiness,
    /// fast health checks, stream-friendly timeouts, and an admin-level runtime API socket.
    static func configuration(port: Int, servers: [(name: String, address: String)], folder: String) -> String {
        let lines = servers.map { "    server \($0.name) \($0.address) check" }.joined(separator: "\n")
        return """
            global
                maxconn 2000
                stats socket \(folder)/admin.sock mode 600 level admin
                stats timeout 10s

            defaults
                mode http
                option redispatch 1
                retries 3
                timeout connect 2s
                timeout queue 5s
                timeout http-request 10s
                timeout http-keep-alive 10s
                timeout check 1s
                # Streams stay open for minutes.
                timeout client 5m
                timeout server 5m
                timeout tunnel 5m

            frontend cadence
                bind 127.0.0.1:\(port)
                default_backend \(backend)

            backend \(backend)
                balance roundrobin
                option httpchk GET /healthz
                http-check expect status 200
                default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1
            \(lines)

            """
    }

    /// Sends one command to HAProxy's runtime API and returns its answer.
    ///
    /// ```swift
    /// let stats = try await proxy.command("show stat")
    /// ```
    @discardableResult
    public func command(_ line: String) async throws -> String {
        let path = socketPath
        return try await PostgresTestServer.onThread {
            try UnixSocket.exchange(path: path, command: line, deadline: .seconds(10))
        }
    }

    /// Cuts every client connection that `server` (one of ``serverNames``) is serving now, in the
    /// middle of its streams, while the server itself keeps running and stays in rotation.
    public func dropSessions(server: String) async throws {
        let answer = try await command("shutdown sessions server \(Self.backend)/\(server)")
        let said = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard said.isEmpty else { throw TestServerError("HAProxy refused to drop \(server)'s sessions: \(said)") }
    }

    /// Cuts every client connection of every server.
    public func dropAllSessions() async throws {
        for server in serverNames { try await dropSessions(server: server) }
    }

    /// What `show stat` says of one server.
    public struct ServerStatistics: Sendable, Hashable {
        /// `UP`, `DOWN`, `MAINT`, or a transition such as `UP 1/2` (up, one failed check from down;
        /// also the state before the first check ran) or `DOWN 1/1`.
        public var status: String
        /// The sessions it serves now.
        public var sessions: Int
        /// The sessions it served in all.
        public var totalSessions: Int

        /// Whether it is in rotation (up, even if a check just failed).
        public var isUp: Bool { status.hasPrefix("UP") }
    }

    /// What `show stat` says of each server, by name.
    public func serverStatistics() async throws -> [String: ServerStatistics] {
        let csv = try await command("show stat")
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = rows.first?.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "# ")) } ?? []
        guard let proxy = header.firstIndex(of: "pxname"), let name = header.firstIndex(of: "svname"),
            let status = header.firstIndex(of: "status"), let sessions = header.firstIndex(of: "scur"),
            let total = header.firstIndex(of: "stot")
        else { throw TestServerError("unexpected answer to show stat: \(csv)") }
        var result: [String: ServerStatistics] = [:]
        let needed = max(proxy, name, status, sessions, total)
        for row in rows.dropFirst() where row.count > needed && row[proxy] == Self.backend {
            let server = String(row[name])
            guard serverNames.contains(server) else { continue }
            result[server] = ServerStatistics(
                status: String(row[status]), sessions: Int(row[sessions]) ?? 0, totalSessions: Int(row[total]) ?? 0)
        }
        return result
    }

    /// Waits until HAProxy's health checks see `server` as `status` (`"UP"` or `"DOWN"`), checking
    /// every 50 ms up to `timeout` (HAProxy has no way to announce a change, so this polls).
    public func waitUntil(server: String, is status: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        while ContinuousClock.now < deadline {
            last = try await serverStatistics()[server]?.status ?? "unknown"
            if last == status { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestServerError("\(server) was still \(last), not \(status), after \(timeout)")
    }
}
