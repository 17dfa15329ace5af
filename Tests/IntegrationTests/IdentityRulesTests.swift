import CadenceCore
import CadenceTesting
import Testing

@testable import CadenceServer

/// The pure parts of per-subject limits and conversation pruning, on a test clock.
@Suite("Identity rules")
struct IdentityRulesTests {
    @Test("the rate limit is a token bucket per subject: a burst of N, then N a minute")
    func tokenBucket() {
        var limit = RequestRateLimit(perMinute: 2)
        #expect(limit.request(from: "ada", at: .zero) == .allow)
        #expect(limit.request(from: "ada", at: .zero) == .allow)
        #expect(limit.request(from: "ada", at: .zero) == .refuse(retryAfterSeconds: 30))
        #expect(limit.request(from: "bob", at: .zero) == .allow)
        #expect(limit.request(from: "ada", at: .seconds(10)) == .refuse(retryAfterSeconds: 20))
        #expect(limit.request(from: "ada", at: .seconds(30)) == .allow)
        #expect(limit.request(from: "ada", at: .seconds(31)) == .refuse(retryAfterSeconds: 29))
        #expect(limit.request(from: "ada", at: .seconds(600)) == .allow)
        #expect(limit.request(from: "ada", at: .seconds(600)) == .allow)
    }

    @Test("subjects whose bucket refilled are dropped, so the buckets stay bounded by recent subjects")
    func bucketsBounded() {
        var limit = RequestRateLimit(perMinute: 10)
        for minute in 0..<20 {
            for subject in 0..<1_000 { _ = limit.request(from: "\(minute)-\(subject)", at: .seconds(minute * 60)) }
        }
        #expect(limit.subjectsTracked <= 2_048)
    }

    @Test("the server's limiter reads the injected clock and answers 429 with Retry-After")
    func limiterOnTestClock() {
        let clock = ManualClock()
        let limiter = SubjectRateLimiter(perMinute: 1, clock: clock)
        #expect(limiter.admit("ada")?.code == nil)
        let refusal = limiter.admit("ada")
        #expect(refusal?.code == "rate_limited")
        #expect(refusal?.status == .tooManyRequests)
        #expect(refusal?.headers[.retryAfter] == "60")
        clock.advance(by: .seconds(60))
        #expect(limiter.admit("ada")?.code == nil)
    }

    @Test("conversations are pruned with their answers after retention: 300 long ids leave nothing behind")
    func conversationsPruned() async throws {
        let clock = ManualClock()
        let registry = MemoryAnswerRegistry(
            engine: instantEngine, clock: clock, limits: ReplayLimits(retention: .seconds(60)))
        let request = AnswerRequest(query: "What is SSE?")
        for index in 0..<300 {
            let conversation = String(repeating: "c", count: 120) + String(index)
            let id = try await registry.start(request, for: "ada", conversationID: conversation)
            var after = 0
            while true {
                let slice = try await registry.read(id, after: after, quietFor: nil)
                after = slice.events.last?.event.sequence ?? after
                if slice.finished { break }
            }
        }
        await clock.waitForSleepers(300)
        #expect(await registry.conversationCount == 300)
        #expect(await registry.messages(in: String(repeating: "c", count: 120) + "0", of: "ada")?.count == 1)
        clock.advance(by: .seconds(60))
        for _ in 0..<100_000 where await registry.conversationCount > 0 { await Task.yield() }
        #expect(await registry.conversationCount == 0)
        #expect(await registry.messages(in: String(repeating: "c", count: 120) + "0", of: "ada") == nil)
        await registry.shutdown()
    }

    @Test("the guard's subject header is replaced, never trusted, and keeps every byte of a subject")
    func subjectHeader() throws {
        for subject in ["ada", "", "a b\r\nX-Evil: 1", "ü/%?=&", String(repeating: "z", count: 255)] {
            let encoded = Authenticator.encoded(subject)
            #expect(encoded.allSatisfy { $0.isASCII && !$0.isWhitespace })
            #expect(Authenticator.decoded(encoded) == subject)
        }
    }
}
