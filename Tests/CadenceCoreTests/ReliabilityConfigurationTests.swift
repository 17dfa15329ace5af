import CadenceCore
import Testing

@Suite("Reliability: configuration, backoff and the seeded generator")
struct ReliabilityConfigurationTests {
    @Test("defaults follow seed 000 and the issue")
    func defaults() {
        let configuration = ReliabilityConfiguration()
        #expect(configuration.idleTimeout == .seconds(120))
        #expect(configuration.byteIdleTimeout == .seconds(45))
        #expect(configuration.firstTokenTimeout == .seconds(60))
        #expect(configuration.overallTimeout == .seconds(360))
        #expect(configuration.maxAttempts == 3)
        #expect(ReliabilityConfiguration(maxAttempts: 0).maxAttempts == 1)
    }

    @Test(
        "equal jitter: half the ceiling always, the other half by the jitter",
        arguments: [
            (2, 0.0, Duration.milliseconds(250)), (2, 0.5, .milliseconds(375)), (3, 0.0, .milliseconds(500)),
            (4, 1.0, .seconds(2)), (6, 0.0, .seconds(4)), (40, 0.0, .seconds(4)), (40, 1.0, .seconds(8)),
        ])
    func equalJitter(attempt: Int, jitter: Double, delay: Duration) {
        #expect(ReliabilityConfiguration().retryDelay(beforeAttempt: attempt, retryAfter: nil, jitter: jitter) == delay)
    }

    @Test("retry-after wins over backoff, capped, never negative")
    func retryAfterDelay() {
        let configuration = ReliabilityConfiguration()
        #expect(configuration.retryDelay(beforeAttempt: 2, retryAfter: .seconds(5), jitter: 0.9) == .seconds(5))
        #expect(configuration.retryDelay(beforeAttempt: 2, retryAfter: .seconds(99), jitter: 0) == .seconds(30))
        #expect(configuration.retryDelay(beforeAttempt: 2, retryAfter: .seconds(-1), jitter: 0) == .zero)
    }

    @Test("SplitMix64 gives the reference sequence and is reproducible")
    func splitMix() {
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<100).map { _ in a.next() }
        #expect(first == (0..<100).map { _ in b.next() })
        #expect(Set(first).count == 100)
    }
}
