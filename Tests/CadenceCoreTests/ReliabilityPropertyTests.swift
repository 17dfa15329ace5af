import CadenceCore
import Testing

@Suite("Reliability: randomized drops, resumes and replays (seeded)")
struct ReliabilityPropertyTests {
    @Test("friendly faults: the final text equals the generated text exactly, one terminal update", arguments: 0..<8)
    func friendlyFaultsLoseAndDoubleNothing(batch: UInt64) {
        for seed in batch * 100..<(batch + 1) * 100 {
            var simulation = FaultSimulation(seed: seed, faults: .friendly)
            simulation.run()
            let expected = Array(simulation.answer.text.unicodeScalars)
            #expect(!simulation.hung, "seed \(seed) hung")
            #expect(simulation.updates.filter(\.isTerminal).count == 1, "seed \(seed)")
            #expect(simulation.updates.last?.isTerminal == true, "seed \(seed)")
            guard case .completed(let completion) = simulation.updates.last else {
                Issue.record("seed \(seed) ended with \(String(describing: simulation.updates.last))")
                continue
            }
            #expect(completion.reason == .completed, "seed \(seed)")
            #expect(Array(completion.text.unicodeScalars) == expected, "seed \(seed)")
            #expect(Array(simulation.appendedText.unicodeScalars) == expected, "seed \(seed)")
            #expect(completion.followUps == ["More?"], "seed \(seed)")
            #expect(completion.reasoning == simulation.answer.reasoning, "seed \(seed)")
            #expect(simulation.appendedReasoning == simulation.answer.reasoning, "seed \(seed)")
            #expect(Set(completion.sources.map(\.url)).count == completion.sources.count, "seed \(seed)")
        }
    }

    @Test("harsh faults: never doubled or reordered, always exactly one terminal update", arguments: 0..<8)
    func harshFaultsNeverDouble(batch: UInt64) {
        var outcomes: [String: Int] = [:]
        for seed in batch * 100..<(batch + 1) * 100 {
            var simulation = FaultSimulation(seed: seed, faults: .harsh)
            simulation.run()
            let generated = Array(simulation.answer.text.unicodeScalars)
            let appended = Array(simulation.appendedText.unicodeScalars)
            #expect(!simulation.hung, "seed \(seed) hung")
            #expect(simulation.updates.filter(\.isTerminal).count == 1, "seed \(seed)")
            #expect(generated.starts(with: appended), "seed \(seed): text doubled or out of order")
            #expect(Array(simulation.machine.text.unicodeScalars) == appended, "seed \(seed)")
            let reasoning = simulation.appendedReasoning
            #expect(simulation.answer.reasoning.unicodeScalars.starts(with: reasoning.unicodeScalars), "seed \(seed)")
            switch simulation.updates.last {
            case .completed(let completion):
                #expect(Array(completion.text.unicodeScalars) == appended, "seed \(seed)")
                #expect(completion.reasoning == reasoning, "seed \(seed)")
                outcomes["completed", default: 0] += 1
            case .failed(let failure):
                #expect(Array(failure.partialText.unicodeScalars) == appended, "seed \(seed)")
                #expect(failure.reasoning == reasoning, "seed \(seed)")
                outcomes["failed", default: 0] += 1
            default:
                Issue.record("seed \(seed) ended with \(String(describing: simulation.updates.last))")
            }
        }
        // The harsh faults must exercise both endings, or the test proves little.
        #expect(outcomes["completed", default: 0] > 0)
        #expect(outcomes["failed", default: 0] > 0)
    }

    @Test("every reconnected follows a reconnecting")
    func reconnectBanner() {
        for seed in 0..<200 as Range<UInt64> {
            var simulation = FaultSimulation(seed: seed, faults: .harsh)
            simulation.run()
            var bannerShown = false
            for update in simulation.updates {
                switch update {
                case .reconnecting: bannerShown = true
                case .reconnected:
                    #expect(bannerShown, "seed \(seed): reconnected without reconnecting")
                    bannerShown = false
                default: break
                }
            }
        }
    }
}
