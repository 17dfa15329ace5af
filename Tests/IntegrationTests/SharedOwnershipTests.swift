import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

/// Ownership with `--postgres`: the answer's subject is stored with it, so every node refuses
/// another subject exactly as it refuses an id that never existed.
@Suite("Ownership across nodes", .serialized, .needsPostgres, .timeLimit(.minutes(3)))
struct SharedOwnershipTests {
    typealias Route = AccessControlTests.Route

    @Test("an answer made on one node is its subject's on another: 404 to anyone else, served to its owner")
    func acrossNodes() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        var configuration = JWTTestKeys.hs256Configuration()
        configuration.postgres = try PostgresConfiguration(url: postgres.url, leaseTimeout: .seconds(600))
        let first = try await ReferenceServer(engine: HeldEngine(), configuration: configuration).start()
        let second = try await ReferenceServer(engine: HeldEngine(), configuration: configuration).start()
        do {
            try await Self.check(first, second)
        } catch {
            await first.shutdown()
            await second.shutdown()
            throw error
        }
        await first.shutdown()
        await second.shutdown()
    }

    private static func check(_ first: RunningServer, _ second: RunningServer) async throws {
        let send = SubjectOwnershipTests.send
        let shape = SubjectOwnershipTests.shape
        let missing = SubjectOwnershipTests.missing
        let ada = try await JWTTestKeys.bearer("ada")
        let bob = try await JWTTestKeys.bearer("bob")

        let posted = try await send(
            Route(method: .POST, path: "/v1/conversations/trip/messages", body: SubjectOwnershipTests.question), first, ada)
        #expect(posted.status == 201)
        let id = try SubjectOwnershipTests.messageID(posted.body)

        for route in [
            { (id: String) in Route(method: .GET, path: "/v1/answers/\(id)/events?after=5") },
            { (id: String) in Route(method: .DELETE, path: "/v1/answers/\(id)") },
        ] {
            let theirs = try await send(route(id), second, bob)
            let none = try await send(route(missing), second, bob)
            #expect(theirs.status == 404)
            #expect(shape(theirs, id) == shape(none, missing))
        }
        let polled = try await send(Route(method: .GET, path: "/v1/conversations/trip/messages"), second, bob)
        let never = try await send(Route(method: .GET, path: "/v1/conversations/never/messages"), second, bob)
        #expect(shape(polled, "trip") == shape(never, "never"))

        let hers = try await send(Route(method: .GET, path: "/v1/conversations/trip/messages"), second, ada)
        #expect(hers.status == 200)
        #expect(try SubjectOwnershipTests.messageID(hers.body) == id)
        #expect(try await send(Route(method: .DELETE, path: "/v1/answers/\(id)"), second, ada).status == 200)
    }
}
