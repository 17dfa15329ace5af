import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTesting
import NIOCore
import Testing

/// Several real `ReferenceServer`s in this process sharing one real PostgreSQL server: what only
/// the shared registry does (migrating together, following through notifications, listening again
/// after a drop, cancelling across nodes, purging). Node deaths, which need real processes, are in
/// `MultiNodeTests`.
@Suite("Answers shared through PostgreSQL", .serialized, .needsPostgres)
struct SharedAnswersTests {
    static let question = AnswerRequest(query: "How does resume work?")

    /// A node's settings. The lease is long by default, so its heartbeat (a fifth of it) never comes
    /// within a test: what arrives, arrives through notifications.
    static func configuration(
        _ postgres: PostgresTestServer, lease: Duration = .seconds(600), retention: Duration = .seconds(3600)
    ) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.postgres = try PostgresConfiguration(url: postgres.url, leaseTimeout: lease, retention: retention)
        return configuration
    }

    /// Starts nodes on one fresh database, runs `body`, and stops them and the database.
    static func withNodes<T>(
        _ engines: [any AnswerEngine], lease: Duration = .seconds(600), retention: Duration = .seconds(3600),
        _ body: (PostgresTestServer, [RunningServer]) async throws -> T
    ) async throws -> T {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        let configuration = try configuration(postgres, lease: lease, retention: retention)
        var nodes: [RunningServer] = []
        do {
            for engine in engines {
                nodes.append(try await ReferenceServer(engine: engine, configuration: configuration).start())
            }
            let value = try await body(postgres, nodes)
            for node in nodes { await node.shutdown() }
            return value
        } catch {
            for node in nodes { await node.shutdown() }
            throw error
        }
    }

    /// Asks ``question`` of `node`: the open connection and the answer's id.
    static func ask(_ node: RunningServer) async throws -> (TransportConnection, id: String) {
        let asked = try await SSETransport(baseURL: node.baseURL).open(question, resume: nil)
        return (asked, try #require(asked.answerID))
    }

    /// Reads answer `id` on `node`, from its first event.
    static func follow(_ id: String, on node: RunningServer) async throws -> TransportConnection {
        try await SSETransport(baseURL: node.baseURL).open(question, resume: ResumeCursor(answerID: id, lastSequence: 0))
    }

    /// Waits for `condition` to hold, checking every 100 ms, failing after `seconds`.
    static func eventually(
        _ what: String, seconds: Double = 30, _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("timed out after \(seconds) s waiting until \(what)")
        throw CancellationError()
    }

    @Test func nodesStartingTogetherMigrateTheSchemaOnce() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        let configuration = try Self.configuration(postgres)
        async let first = ReferenceServer(engine: instantEngine, configuration: configuration).start()
        async let second = ReferenceServer(engine: instantEngine, configuration: configuration).start()
        async let third = ReferenceServer(engine: instantEngine, configuration: configuration).start()
        let nodes = try await [first, second, third]
        // Two migrations (the answers and events tables; each answer's subject), each applied once.
        #expect(try await postgres.execute("SELECT count(*), max(version) FROM cadence_schema") == "2|2")
        // Each node works: an answer asked of one is read whole from another.
        let (id, asked) = await openAndReceive(SSETransport(baseURL: nodes[0].baseURL), Self.question)
        let resumed = await openAndReceive(
            SSETransport(baseURL: nodes[2].baseURL), Self.question, resume: ResumeCursor(answerID: try #require(id), lastSequence: 0))
        #expect(asked.endsWithComplete)
        #expect(resumed.received.comparableEvents == asked.comparableEvents)
        for node in nodes { await node.shutdown() }
    }

    @Test func aReaderOnAnotherNodeFollowsLiveAndAfterItsListenerIsCut() async throws {
        let engine = ScriptedEngine()
        try await Self.withNodes([engine, instantEngine]) { postgres, nodes in
            engine.push(.token("one "))
            let (_, id) = try await Self.ask(nodes[0])
            let follower = try await Self.follow(id, on: nodes[1])
            var reader = EventReader(follower)
            try await reader.readThroughFirstToken()

            // Cut every node's listener; each must LISTEN again on a new connection.
            let cut = try await postgres.terminateConnections(whereSQL: "query LIKE 'LISTEN%'")
            #expect(cut == 2)
            try await Self.eventually("both nodes listen again") {
                try await postgres.clientConnections().filter { $0.query.hasPrefix("LISTEN") }.count == 2
            }

            // What follows reaches the other node only through the new listener: the heartbeat that
            // would also re-read the table is minutes away.
            engine.push(.token("two "), .token("three"), .complete(Completion()))
            engine.finish()
            try await reader.readToEnd()
            let events = reader.events
            let text = events.compactMap { event -> String? in
                if case .token(let token) = event.kind { token } else { nil }
            }.joined()
            #expect(text == "one two three")
            #expect(events.compactMap(\.sequence) == Array(1...4))
            #expect(events.last.map { if case .complete = $0.kind { true } else { false } } == true)
        }
    }

    @Test func cancellingOnAnotherNodeStopsTheOwnersEngineAtOnce() async throws {
        let engine = ScriptedEngine()
        try await Self.withNodes([engine, instantEngine]) { _, nodes in
            engine.push(.token("Partial "))
            let (asked, id) = try await Self.ask(nodes[0])
            var reader = EventReader(asked)
            try await reader.readThroughFirstToken()
            let beforeCancel = reader.events.count
            let (status, _) = try await AnswerCancelTests.delete(nodes[1], id)
            #expect(status == 200)
            // The owner hears of it through its notification, not its heartbeat (minutes away).
            try await Self.eventually("the owner's engine is cancelled") { engine.cancelled.isOpen }
            try await reader.readToEnd()
            let rest = reader.events.dropFirst(beforeCancel).map(\.kind)
            #expect(rest == [.error(code: "cancelled", message: "the answer was cancelled by the client")])
            let (again, _) = try await AnswerCancelTests.delete(nodes[0], id)
            #expect(again == 409)
        }
    }

    @Test func pollingReadsAConversationStartedOnAnotherNode() async throws {
        try await Self.withNodes([instantEngine, instantEngine]) { _, nodes in
            let (id, asked) = await openAndReceive(
                PollingTransport(baseURL: nodes[0].baseURL, conversationID: "shared-conversation", interval: .milliseconds(100)), Self.question)
            #expect(asked.endsWithComplete)
            let resumed = await openAndReceive(
                PollingTransport(baseURL: nodes[1].baseURL, conversationID: "shared-conversation", interval: .milliseconds(100)), Self.question,
                resume: ResumeCursor(answerID: try #require(id), lastSequence: 3))
            #expect(resumed.received.comparableEvents == Array(asked.comparableEvents.dropFirst(3)))
        }
    }

    /// A cursor past what the table holds is refused on any node, running or ended; one the table
    /// holds is served wherever the reader comes back.
    @Test func aCursorPastTheTablesLastEventIsA416OnEveryNode() async throws {
        let engine = ScriptedEngine()
        try await Self.withNodes([engine, instantEngine]) { _, nodes in
            engine.push(.token("one "), .token("two"))
            let (asked, id) = try await Self.ask(nodes[0])
            var reader = EventReader(asked)
            try await reader.readThroughFirstToken()
            let resume = { (node: RunningServer, after: Int, stopAfter: Int?) async -> Received in
                let cursor = ResumeCursor(answerID: id, lastSequence: after)
                return await openAndReceive(
                    SSETransport(baseURL: node.baseURL), Self.question, resume: cursor, stopAfter: stopAfter
                ).received
            }
            try await Self.eventually("the owner sent both tokens") {
                await resume(nodes[1], 0, 2).sequences == [1, 2]
            }
            for node in nodes {
                ResumeCursorTests.expectOutOfRange(await resume(node, 3, nil).clientError, events: 2)
            }
            engine.push(.complete(Completion()))
            engine.finish()
            try await reader.readToEnd()
            for node in nodes {
                let atEnd = await resume(node, 3, nil)
                #expect(atEnd.error == nil && atEnd.sequences.isEmpty)
                ResumeCursorTests.expectOutOfRange(await resume(node, 9, nil).clientError, events: 3)
            }
        }
    }

    @Test func finishedAnswersArePurgedAfterRetentionThenGone() async throws {
        // A 1 s lease makes the rounds (which purge) come every 200 ms; retention is 1 s.
        try await Self.withNodes([instantEngine], lease: .seconds(1), retention: .seconds(1)) { postgres, nodes in
            let (id, asked) = await openAndReceive(SSETransport(baseURL: nodes[0].baseURL), Self.question)
            let answerID = try #require(id)
            #expect(asked.endsWithComplete)
            try await Self.eventually("the answer is purged") {
                try await postgres.execute("SELECT purged FROM cadence_answers WHERE id = '\(answerID)'") == "t"
            }
            #expect(try await postgres.execute("SELECT count(*) FROM cadence_events WHERE answer_id = '\(answerID)'") == "0")
            // A node that never mirrored it hears 410, not an empty answer.
            let late = try await ReferenceServer(engine: instantEngine, configuration: try Self.configuration(postgres)).start()
            let resumed = await openAndReceive(
                SSETransport(baseURL: late.baseURL), Self.question, resume: ResumeCursor(answerID: answerID, lastSequence: 0))
            await late.shutdown()
            #expect(resumed.received.clientError?.status == 410)
        }
    }

    @Test func aNodeThatShutsDownEndsItsAnswersAsInterruptedForReadersElsewhere() async throws {
        let engine = ScriptedEngine()
        try await Self.withNodes([instantEngine]) { postgres, nodes in
            let owner = try await ReferenceServer(engine: engine, configuration: try Self.configuration(postgres)).start()
            engine.push(.token("kept"))
            let (_, id) = try await Self.ask(owner)
            let follower = try await Self.follow(id, on: nodes[0])
            var reader = EventReader(follower)
            try await reader.readThroughFirstToken()
            await owner.shutdown()
            try await reader.readToEnd()
            reader.expectInterrupted(after: "kept")
        }
    }

    @Test func anExpiredLeaseIsTakenOverByAnotherNodeWhichCountsIt() async throws {
        let engine = ScriptedEngine()
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        // The owner renews every 2 minutes; the other node looks for expired leases every 200 ms.
        let owner = try await ReferenceServer(
            engine: engine, configuration: try Self.configuration(postgres, lease: .seconds(600))
        ).start()
        let watcher = try await ReferenceServer(
            engine: instantEngine, configuration: try Self.configuration(postgres, lease: .seconds(1))
        ).start()
        defer { Task { await owner.shutdown(); await watcher.shutdown() } }
        engine.push(.token("kept "))
        let (asked, id) = try await Self.ask(owner)
        var reader = EventReader(asked)
        try await reader.readThroughFirstToken()
        // As if the owner had stopped renewing: its lease runs out now.
        try await postgres.execute("UPDATE cadence_answers SET lease_expires_at = now() - interval '1 second' WHERE id = '\(id)'")
        try await reader.readToEnd()
        reader.expectInterrupted(after: "kept ")
        // The owner, still alive, stops its engine once it sees the answer ended elsewhere.
        try await Self.eventually("the owner's engine is stopped") { engine.cancelled.isOpen }
        // The watcher counts the take-over once its append returns, which may be after the reader,
        // woken by the append's notification, has read the end.
        try await Self.eventually("the watcher counts the take-over") {
            MetricsTests.value(of: "cadence_lease_takeovers_total", in: try await MetricsTests.scrape(watcher).text) == 1
        }
        let watched = try await MetricsTests.scrape(watcher).text
        #expect(MetricsTests.value(of: "cadence_lease_takeovers_total", in: watched) == 1)
        #expect(MetricsTests.value(of: #"cadence_answers_ended_total{ending="interrupted"}"#, in: watched) == 1)
        let owned = try await MetricsTests.scrape(owner).text
        #expect(MetricsTests.value(of: "cadence_answers_started_total", in: owned) == 1)
        try await Self.eventually("the owner no longer counts the answer as active") {
            MetricsTests.value(of: "cadence_active_answers", in: try await MetricsTests.scrape(owner).text) == 0
        }
    }
}

/// Reads one connection's events in two steps: through its first token, then, once a test has done
/// what should end the answer, to the end.
struct EventReader {
    private var items: TransportItems.AsyncIterator
    /// Every event read so far.
    private(set) var events: [ResearchEvent] = []

    init(_ connection: TransportConnection) {
        items = connection.items.makeAsyncIterator()
    }

    mutating func readThroughFirstToken() async throws {
        while case .event(let event)? = try await items.next() {
            events.append(event)
            if case .token = event.kind { break }
        }
    }

    mutating func readToEnd() async throws {
        while let item = try await items.next() {
            if case .event(let event) = item { events.append(event) }
        }
    }

    /// Checks that the answer began with the token `text` and ended with an `interrupted` error.
    func expectInterrupted(after text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let kinds = events.map(\.kind)
        #expect(kinds.first == .token(text), sourceLocation: sourceLocation)
        guard case .error(let code, _)? = kinds.last else {
            Issue.record("the stream did not end with an error: \(kinds)", sourceLocation: sourceLocation)
            return
        }
        #expect(code == "interrupted", sourceLocation: sourceLocation)
    }
}
