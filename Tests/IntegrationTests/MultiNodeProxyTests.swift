import CadenceTesting
import Testing

/// `cadence ask` through HAProxy (round-robin, no stickiness) in front of several nodes: every
/// request, resumes included, may land on another node.
@Suite("Multi-node: behind a load balancer", .serialized, .needsPostgres, .needsHAProxy)
struct MultiNodeProxyTests {
    @Test(
        "cadence ask prints exactly the answer through HAProxy while its connections are cut again and again",
        arguments: ["sse", "websocket"])
    func askThroughDrops(transport: String) async throws {
        let options = ["--no-history", "--plain", "--transport", transport, multiNodeQuestion]
        try await Self.withCluster(asking: options) { cluster, proxy, expected in
            try #require(
                expected.stdout.utf8.count > 300, "a long enough answer to cut three times: \(expected.stdout)")

            let ask = try RunningCommand.start(["ask", "--url", proxy.baseURL] + options)
            // Three times: once the command is connected again and has printed more since, cut every live
            // connection. (Cutting while it waits to reconnect would cut nothing.)
            let drops = 3
            for drop in 0..<drops {
                try await ask.waitUntil("reconnection \(drop)") { _, stderr in
                    Self.count("Reconnected", in: stderr) >= drop
                }
                let printed = ask.stdout.utf8.count
                try await ask.waitUntil("more text after reconnection \(drop)") { stdout, _ in
                    stdout.utf8.count >= printed + 40
                }
                try await proxy.dropAllSessions()
            }
            let result = try await ask.finish()
            #expect(result.status == 0, "stderr: \(result.stderr)\n\(cluster.logs)")
            #expect(result.stdout == expected.stdout)
            #expect(
                Self.count("Connection lost", in: result.stderr) == drops, "every cut forced a resume: \(result.stderr)"
            )
            // Round-robin without stickiness: the question and its three resumes went to every node.
            let served = try await proxy.serverStatistics().mapValues(\.totalSessions)
            #expect(served.values.reduce(0, +) == drops + 1 && served.values.allSatisfy { $0 >= 1 }, "\(served)")
        }
    }

    @Test("cadence ask --transport polling through HAProxy reads one answer from every node in turn")
    func pollingAcrossNodes() async throws {
        let options = ["--no-history", "--plain", "--transport", "polling", multiNodeQuestion]
        try await Self.withCluster(asking: options) { cluster, proxy, expected in

            let result = try await CadenceBinary.run(["ask", "--url", proxy.baseURL] + options)
            #expect(result.status == 0, "stderr: \(result.stderr)\n\(cluster.logs)")
            #expect(result.stdout == expected.stdout)
            // Each poll is its own request, so round-robin spread them over every node.
            let served = try await proxy.serverStatistics().mapValues(\.totalSessions)
            #expect(served.values.allSatisfy { $0 >= 1 }, "\(served)")
        }
    }

    @Test("cadence ask through HAProxy finishes exactly when a node serving it is killed")
    func askThroughNodeKill() async throws {
        try await Self.withCluster(asking: ["--no-history", "--plain", multiNodeQuestion]) { cluster, proxy, expected in

            // The first request goes to one node; cut it there, so the resume lands on the next node in
            // the rotation, then kill that one while it serves the resumed stream. The owner lives on.
            let ask = try RunningCommand.start([
                "ask", "--url", proxy.baseURL, "--no-history", "--plain", multiNodeQuestion,
            ])
            try await ask.waitUntil("the first text") { stdout, _ in !stdout.isEmpty }
            let serving = try await proxy.serverStatistics().filter { $0.value.sessions > 0 }.map(\.key)
            try #require(serving.count == 1, "one node serves the answer: \(serving)")
            let owner = try #require(proxy.serverNames.firstIndex(of: serving[0]))
            try await proxy.dropSessions(server: serving[0])
            let third = expected.stdout.utf8.count / 3
            try await ask.waitUntil("a third of the text") { stdout, _ in stdout.utf8.count >= third }
            let resumedOn = try await proxy.serverStatistics().filter { $0.value.sessions > 0 }.map(\.key)
            if let name = resumedOn.first, let index = proxy.serverNames.firstIndex(of: name), index != owner {
                cluster.nodes[index].kill9()
            } else {
                Issue.record("the resume stayed on the owner (\(resumedOn)); round-robin should have moved it")
            }
            let result = try await ask.finish()
            #expect(result.status == 0, "stderr: \(result.stderr)\n\(cluster.logs)")
            #expect(result.stdout == expected.stdout)
        }
    }

    /// Runs `body` with three nodes behind HAProxy (round-robin, no stickiness) and what
    /// `cadence ask --url NODE options` prints when asked of node 0 directly, the answer every run
    /// through the proxy must print; then stops the proxy and the nodes.
    static func withCluster(
        asking options: [String],
        _ body: (NodeCluster, HAProxyTestServer, _ expected: CadenceBinary.Result) async throws -> Void
    ) async throws {
        let cluster = try await NodeCluster.start(nodes: 3)
        defer { cluster.stop() }
        let proxy = try await HAProxyTestServer.start(servers: cluster.nodes.map(\.baseURL))
        defer { proxy.stop() }
        let expected = try await CadenceBinary.run(["ask", "--url", cluster.nodes[0].baseURL] + options)
        try #require(expected.status == 0, "uninterrupted: \(expected.stderr)")
        try await body(cluster, proxy, expected)
    }

    static func count(_ phrase: String, in text: String) -> Int {
        text.components(separatedBy: phrase).count - 1
    }
}
