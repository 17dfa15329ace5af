import CadenceTesting
import Foundation
import Testing

/// Several nodes of the built `cadence serve` sharing answers through one real PostgreSQL
/// (`--postgres URL`), for multi-node tests.
///
/// ```swift
/// let cluster = try await NodeCluster.start(nodes: 3, arguments: ["--lease-timeout", "2"])
/// defer { cluster.stop() }
/// let first = try await AnswerClient.ask(cluster.nodes[0].baseURL, query: "How does resume work?")
/// ```
final class NodeCluster: Sendable {
    let postgres: PostgresTestServer
    let nodes: [ServeProcess]

    private init(postgres: PostgresTestServer, nodes: [ServeProcess]) {
        self.postgres = postgres
        self.nodes = nodes
    }

    /// Starts PostgreSQL, then `count` nodes one after the other (each with `--postgres URL` and
    /// `arguments`), so that the first one sets up the schema on its own.
    static func start(nodes count: Int, arguments: [String] = []) async throws -> NodeCluster {
        let postgres = try await PostgresTestServer.start()
        var nodes: [ServeProcess] = []
        do {
            for _ in 0..<count {
                nodes.append(try await ServeProcess.start(["--postgres", postgres.url] + arguments))
            }
        } catch {
            for node in nodes { node.stop() }
            postgres.stop()
            throw error
        }
        return NodeCluster(postgres: postgres, nodes: nodes)
    }

    /// Stops every node still running (SIGTERM), then PostgreSQL.
    func stop() {
        for node in nodes { node.stop() }
        postgres.stop()
    }

    /// What each node wrote to stderr so far, for failure messages.
    var logs: String {
        nodes.enumerated().map { index, node in "node \(index) (\(node.baseURL)):\n\(node.stderr)" }
            .joined(separator: "\n")
    }
}

/// The question every multi-node test asks. `cadence serve` has no option to slow its corpus engine
/// (12 ms a token, 150 ms a stage), so this is a long, many-topic question: about 250 events over
/// 4.5 s, time enough to cut, kill and resume while it streams.
let multiNodeQuestion =
    "Compare SSE, WebSocket and polling for streaming answers, and explain how resume, keepalives, idle timeouts "
    + "and backoff with jitter work together across proxies and load balancers"

/// The scene of the outage tests: a two-node cluster, an answer asked of node 0, and readers
/// following it on node 1, every one of them past its first tokens. Stop the cluster when done.
struct FollowedAnswer {
    let cluster: NodeCluster
    let id: String
    /// The client that asked, on the owner.
    let asker: Task<AnswerConnection, any Error>
    /// The readers on the other node.
    let readers: [Task<AnswerConnection, any Error>]

    var owner: ServeProcess { cluster.nodes[0] }
    var readerNode: ServeProcess { cluster.nodes[1] }

    static func start(readers count: Int) async throws -> FollowedAnswer {
        let cluster = try await NodeCluster.start(nodes: 2)
        do {
            let (id, asker, producing) = try await MultiNodeFailureTests.startAnswer(on: cluster.nodes[0].baseURL)
            let following = MultiNodeFailureTests.readers(
                count, on: cluster.nodes[1].baseURL, answerID: id, openingAfter: 3)
            try await MultiNodeFailureTests.midStream([producing] + following.midStream)
            return FollowedAnswer(cluster: cluster, id: id, asker: asker, readers: following.readers)
        } catch {
            cluster.stop()
            throw error
        }
    }

    /// Checks that the owner's client got the whole answer and every reader exactly the same events.
    func expectEveryReaderFinishesExactly() async throws {
        let reference: AnswerConnection
        do { reference = try await asker.value } catch {
            Issue.record("the owner's client: \(error)\n\(cluster.logs)")
            throw error
        }
        #expect(
            reference.endsWithComplete,
            "the owner finished its answer: \(reference.events.last as Any)\n\(cluster.logs)")
        for reader in readers {
            let connection: AnswerConnection
            do { connection = try await reader.value } catch {
                Issue.record("a reader: \(error)\n\(cluster.logs)")
                throw error
            }
            #expect(connection.endsWithComplete, "\(connection.events.last as Any)\n\(cluster.logs)")
            #expect(connection.sequences == reference.sequences)
            #expect(connection.text == reference.text)
        }
    }
}
