import AsyncHTTPClient
import CadenceTesting
import Foundation
import Testing

/// What readers on other nodes see when the owner is stopped politely, an answer is cancelled
/// elsewhere, notifications are lost, or PostgreSQL restarts while an answer streams.
@Suite("Multi-node: shutdowns, cancels and database outages", .serialized, .needsPostgres)
struct MultiNodeOutageTests {
    @Test("the listeners lose their connections mid-answer: readers on another node still finish exactly")
    func listenersTerminated() async throws {
        let answer = try await FollowedAnswer.start(readers: 2)
        defer { answer.cluster.stop() }
        let listeners = try await answer.cluster.postgres.terminateConnections(
            whereSQL: "application_name LIKE '% listener'")
        #expect(listeners == 2, "one listener per node")
        try await answer.expectEveryReaderFinishesExactly()
    }

    @Test("the owner stopped with SIGTERM finishes its answer first: readers elsewhere get all of it")
    func ownerStoppedPolitely() async throws {
        let cluster = try await NodeCluster.start(nodes: 2)
        defer { cluster.stop() }
        let (owner, reader) = (cluster.nodes[0], cluster.nodes[1])
        let reference = try await AnswerClient.ask(reader.baseURL, query: multiNodeQuestion)
        try #require(reference.endsWithComplete)
        let (id, asker, producing) = try await MultiNodeFailureTests.startAnswer(on: owner.baseURL)
        let following = MultiNodeFailureTests.readers(2, on: reader.baseURL, answerID: id, openingAfter: 3)
        try await MultiNodeFailureTests.midStream([producing] + following.midStream)
        let stopping = Task.detached { owner.stop() }  // blocks until the node has exited

        for (index, reader) in following.readers.enumerated() {
            let connection = try await reader.value
            #expect(connection.endsWithComplete, "reader \(index): \(connection.events.last as Any)\n\(cluster.logs)")
            #expect(connection.text == reference.text, "reader \(index)")
            #expect(connection.sequences == numbered(connection.events.count))
        }
        let ownClient = try await asker.value
        #expect(reference.text.hasPrefix(ownClient.text), "the owner's own client: \(ownClient.ending)")
        let log = await stopping.value
        #expect(!owner.process.isRunning, "the owner exited: \(log)")
    }

    @Test("an answer cancelled on another node ends as cancelled for readers on every node")
    func cancelElsewhere() async throws {
        let cluster = try await NodeCluster.start(nodes: 2)
        defer { cluster.stop() }
        let (owner, other) = (cluster.nodes[0], cluster.nodes[1])
        let (id, asker, producing) = try await MultiNodeFailureTests.startAnswer(on: owner.baseURL)
        let onOwner = MultiNodeFailureTests.readers(1, on: owner.baseURL, answerID: id, openingAfter: 3)
        let onOther = MultiNodeFailureTests.readers(1, on: other.baseURL, answerID: id, openingAfter: 3)
        try await MultiNodeFailureTests.midStream([producing] + onOwner.midStream + onOther.midStream)

        var request = HTTPClientRequest(url: other.baseURL + "/v1/answers/\(id)")
        request.method = .DELETE
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let said = String(buffer: try await response.body.collect(upTo: 1 << 16))
        #expect(response.status == .ok, "\(said)")

        var endings: [AnswerConnection] = [try await asker.value]
        for reader in onOwner.readers + onOther.readers { endings.append(try await reader.value) }
        for connection in endings {
            #expect(connection.errorCode == "cancelled", "\(connection.events.last as Any)\n\(cluster.logs)")
            #expect(connection.sequences == numbered(connection.events.count))
        }
        #expect(Set(endings.map(\.events)).count == 1, "every reader saw the same events")
    }

    @Test("PostgreSQL restarts mid-answer: the owner's events are neither lost nor doubled")
    func databaseRestart() async throws {
        let answer = try await FollowedAnswer.start(readers: 1)
        let (cluster, id, reader) = (answer.cluster, answer.id, answer.readerNode)
        defer { cluster.stop() }
        try await cluster.postgres.restart()

        let reference = try await answer.asker.value
        #expect(reference.endsWithComplete, "the owner's client: \(reference.events.last as Any)\n\(cluster.logs)")
        let connection = try await answer.readers[0].value
        // The reader's node may have dropped its stream while the database was away; then it resumes.
        let rest =
            connection.ending == .serverClosed && (connection.endsWithComplete || connection.errorCode != nil)
            ? AnswerConnection(answerID: id, ending: .serverClosed)
            : try await AnswerClient.resume(reader.baseURL, answerID: id, after: connection.lastSequence)
        #expect(rest.ending == .serverClosed)
        #expect(connection.sequences + rest.sequences == reference.sequences, "\(cluster.logs)")
        #expect(connection.text + rest.text == reference.text)
        let replay = try await AnswerClient.resume(reader.baseURL, answerID: id, after: 0)
        #expect(replay.events == reference.events, "the table holds exactly what the owner sent")
    }
}
