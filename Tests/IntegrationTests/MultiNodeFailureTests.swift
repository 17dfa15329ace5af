import CadenceTestFixtures
import CadenceTesting
import Foundation
import Testing

/// Nodes die (`kill -9`) or lose their database connections while answers stream.
@Suite("Multi-node: nodes that die or lose PostgreSQL", .serialized, .needsPostgres)
struct MultiNodeFailureTests {
    /// Readers following an answer on `node` (from its start), each opening `latch` once it has
    /// `tokens` tokens, so the test acts while they are mid-stream.
    static func readers(
        _ count: Int, on node: String, answerID: String, openingAfter tokens: Int
    ) -> (readers: [Task<AnswerConnection, any Error>], midStream: [FaultLatch]) {
        let latches = (0..<count).map { _ in FaultLatch() }
        let readers = latches.map { latch in
            Task {
                defer { latch.open() }  // never leave the test waiting, whatever happened
                return try await AnswerClient.resume(node, answerID: answerID, after: 0) { connection in
                    if connection.tokenCount >= tokens { latch.open() }
                }
            }
        }
        return (readers, latches)
    }

    /// Asks on `node` in the background: returns the answer's id once its headers arrived, the task
    /// reading that first stream to its end, and a latch that opens once it has `tokens` tokens (the
    /// node is producing the answer then, with most of it still to come).
    static func startAnswer(
        on node: String, openingAfter tokens: Int = 3
    ) async throws -> (id: String, asker: Task<AnswerConnection, any Error>, producing: FaultLatch) {
        let (answerIDs, answerID) = AsyncStream<String>.makeStream()
        let producing = FaultLatch()
        let asker = Task {
            defer {
                answerID.finish()
                producing.open()
            }
            return try await AnswerClient.ask(node, query: multiNodeQuestion) { connection in
                answerID.yield(connection.answerID)
                if connection.tokenCount >= tokens { producing.open() }
            }
        }
        guard let id = await answerIDs.first(where: { _ in true }) else {
            return try (await asker.value.answerID, asker, producing)  // rethrows why the question failed
        }
        return (id, asker, producing)
    }

    /// Waits (at most 30 s) until every reader has its first tokens.
    static func midStream(_ latches: [FaultLatch]) async throws {
        try await withDeadline(.seconds(30), "every reader to get its first tokens") {
            for latch in latches { await latch.wait() }
        }
    }

    @Test("kill -9 of a node that only serves readers: they resume on another node and finish exactly")
    func killReaderNode() async throws {
        let cluster = try await NodeCluster.start(nodes: 3)
        defer { cluster.stop() }
        let (owner, doomed, survivor) = (cluster.nodes[0], cluster.nodes[1], cluster.nodes[2])
        let (id, asker, producing) = try await Self.startAnswer(on: owner.baseURL)
        let (readers, midStream) = Self.readers(3, on: doomed.baseURL, answerID: id, openingAfter: 3)
        try await Self.midStream([producing] + midStream)
        doomed.kill9()

        let reference = try await asker.value
        #expect(reference.endsWithComplete, "the owner's own client: \(reference.events.last as Any)\n\(cluster.logs)")
        for (index, reader) in readers.enumerated() {
            let cut = try await reader.value
            #expect(!cut.endsWithComplete, "reader \(index) was cut mid-answer by the kill")
            #expect(cut.tokenCount >= 3)
            let rest = try await AnswerClient.resume(survivor.baseURL, answerID: id, after: cut.lastSequence)
            #expect(rest.endsWithComplete, "reader \(index): \(rest.events.last as Any)\n\(cluster.logs)")
            #expect(cut.sequences + rest.sequences == reference.sequences, "reader \(index)")
            #expect(cut.text + rest.text == reference.text, "reader \(index)")
        }
    }

    @Test("kill -9 of the owner: readers elsewhere end with an interrupted error after the lease, text intact")
    func killOwner() async throws {
        let leaseTimeout = 2
        let cluster = try await NodeCluster.start(nodes: 3, arguments: ["--lease-timeout", String(leaseTimeout)])
        defer { cluster.stop() }
        let (owner, b, c) = (cluster.nodes[0], cluster.nodes[1], cluster.nodes[2])
        // The whole answer, uninterrupted, for comparison.
        let reference = try await AnswerClient.ask(b.baseURL, query: multiNodeQuestion)
        try #require(reference.endsWithComplete)

        let (id, asker, producing) = try await Self.startAnswer(on: owner.baseURL)
        // Kill it while it produces (its own client has its first tokens) with readers connected
        // elsewhere: how far behind they are does not matter, the answer can no longer finish.
        let onB = Self.readers(2, on: b.baseURL, answerID: id, openingAfter: 0)
        let onC = Self.readers(2, on: c.baseURL, answerID: id, openingAfter: 0)
        try await Self.midStream([producing] + onB.midStream + onC.midStream)
        owner.kill9()
        let killed = ContinuousClock.now
        let ownClient = try await asker.value
        #expect(!ownClient.endsWithComplete, "the owner's client lost its stream with the owner")

        var endings: [AnswerConnection] = []
        for reader in onB.readers + onC.readers {
            let connection = try await reader.value
            endings.append(connection)
            #expect(connection.ending == .serverClosed, "the stream ends cleanly after the error event")
            #expect(connection.errorCode == "interrupted", "\(connection.events.last as Any)\n\(cluster.logs)")
            #expect(reference.text.hasPrefix(connection.text), "the partial text is what the owner produced")
            #expect(connection.sequences == numbered(connection.events.count))
        }
        let waited = ContinuousClock.now - killed
        // Lease expiry plus a heartbeat and a check: seconds, never unbounded.
        #expect(waited < .seconds(leaseTimeout * 10), "readers were told after \(waited)")
        // Every node tells the same story, and a later resume replays it, error included.
        #expect(Set(endings.map(\.events)).count == 1, "every reader saw the same events")
        let replay = try await AnswerClient.resume(c.baseURL, answerID: id, after: 0)
        #expect(replay.events == endings.first?.events)
        #expect(ownClient.text.hasPrefix(replay.text) || replay.text.hasPrefix(ownClient.text))
    }

    @Test("PostgreSQL drops every node's connections mid-answer: readers on another node still finish exactly")
    func databaseConnectionsTerminated() async throws {
        let answer = try await FollowedAnswer.start(readers: 2)
        defer { answer.cluster.stop() }
        let terminated = try await answer.cluster.postgres.terminateAllClientConnections()
        #expect(terminated >= 2, "each node had at least one connection (the reader's listener included)")
        try await answer.expectEveryReaderFinishesExactly()
    }
}
