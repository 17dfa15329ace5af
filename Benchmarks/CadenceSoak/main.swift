// The reliability soak: N answers (default 1,000) with randomized faults from a seeded generator,
// each streamed by a real AnswerStream over real loopback sockets from a FaultServer. For every
// answer it compares the final text with the text the server generated and counts characters lost,
// characters doubled, hangs (no terminal state in time) and wrong terminal states.
//
//   swift run -c release CadenceSoak [--answers 1000] [--seed 42] [--concurrency 8]
//
// Not a test: it prints figures. The goal is 0 lost, 0 doubled, 0 hangs.

import CadenceClient
import CadenceCore
import CadenceTesting
import Foundation

struct Options {
    var answers = 1_000
    var seed: UInt64 = 42
    var concurrency = 8

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--answers": answers = iterator.next().flatMap(Int.init) ?? answers
            case "--seed": seed = iterator.next().flatMap(UInt64.init) ?? seed
            case "--concurrency": concurrency = iterator.next().flatMap(Int.init) ?? concurrency
            default: print("unknown argument \(argument)"); exit(2)
            }
        }
    }
}

struct Outcome: Sendable {
    var lost = 0
    var doubled = 0
    var hung = false
    var wrongTerminal = false
    var ending = ""
    var faults: [String] = []
    var seconds = 0.0
}

let words = ["stream", "résumé", "naïve", "日本語", "🧑‍🚀", "cadence", "token", "ünïcödé", "jitter", "backoff", "Ω", "🇯🇵"]

/// One answer: its own server, script and faults, all drawn from `random`.
func soakOne(index: Int, random: inout SplitMix64) async throws -> Outcome {
    let wordCount = Int.random(in: 20...120, using: &random)
    let text = (0..<wordCount).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    let script = FaultScript.answer(text: text, tokenCharacters: Int.random(in: 1...6, using: &random))
    let total = script.bytes(after: 0).count
    let server = try await FaultServer.start(script: script, answerID: "soak-\(index)")
    var faults: [Fault] = []
    var names: [String] = []
    for _ in 0..<Int.random(in: 0...3, using: &random) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1:
            let byte = Int.random(in: 1..<max(2, total), using: &random)
            faults.append(.closeAfter(bytes: byte))
            names.append("close@\(byte)")
        case 2:
            let status = [500, 503, 502].randomElement(using: &random)!
            faults.append(.status(status))
            names.append("\(status)")
        case 3:
            faults.append(.status(429, headers: ["retry-after-ms": "1"]))
            names.append("429")
        default:
            faults.append(.bytePerWrite)
            names.append("byte-per-write")
        }
    }
    for fault in faults { server.enqueue(fault) }
    var configuration = ReliabilityConfiguration()
    configuration.backoffBase = .milliseconds(1)
    configuration.backoffMax = .milliseconds(4)
    configuration.maxAttempts = 5
    // Generous: one-byte-per-write bodies are slow on a loaded 2-core machine, and a timeout here
    // would be counted as a wrong ending, not excused.
    configuration.overallTimeout = .seconds(120)
    let seed = random.next()
    let stream = AnswerStream(
        request: AnswerRequest(query: "soak \(index)"), transport: SSETransport(baseURL: server.baseURL),
        configuration: configuration, random: { SplitMix64(seed: seed) })
    let started = ContinuousClock.now
    // A watchdog well past the overall timeout: anything still running then is a hang.
    let updates = await withTaskGroup(of: [AnswerUpdate]?.self) { group in
        group.addTask {
            var updates: [AnswerUpdate] = []
            for await update in stream { updates.append(update) }
            return updates
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(180))
            return nil
        }
        let first = await group.next()!
        group.cancelAll()
        return first
    }
    let elapsed = ContinuousClock.now - started
    await server.shutdown()
    var outcome = Outcome(faults: names)
    outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    guard let updates else {
        outcome.hung = true
        return outcome
    }
    let received = updates.reduce(into: "") { if case .textAppended(let t) = $1 { $0 += t } }
    let expected = Array(script.text.unicodeScalars)
    let got = Array(received.unicodeScalars)
    let common = zip(expected, got).prefix { $0 == $1 }.count
    outcome.lost = expected.count - common
    outcome.doubled = got.count - common
    let terminals = updates.filter(\.isTerminal)
    switch terminals.last {
    case .completed(let completion)?: outcome.ending = completion.reason == .completed ? "completed" : "timed out"
    case .failed(let failure)?: outcome.ending = "failed: \(failure.message)"
    case .cancelled?: outcome.ending = "cancelled"
    default: outcome.ending = "none"
    }
    if terminals.count != 1 { outcome.wrongTerminal = true }
    if case .completed(let completion)? = terminals.last, completion.reason == .completed, completion.text == received {
    } else {
        outcome.wrongTerminal = true
    }
    return outcome
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
print("soak: \(options.answers) answers, seed \(options.seed), \(options.concurrency) at a time")
var seeds = SplitMix64(seed: options.seed)
let answerSeeds = (0..<options.answers).map { _ in seeds.next() }
let started = ContinuousClock.now
let outcomes = try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
    var results: [(Int, Outcome)] = []
    var next = 0
    func add() {
        let index = next
        next += 1
        group.addTask {
            var random = SplitMix64(seed: answerSeeds[index])
            return (index, try await soakOne(index: index, random: &random))
        }
    }
    for _ in 0..<min(options.concurrency, options.answers) { add() }
    while let result = try await group.next() {
        results.append(result)
        if next < options.answers { add() }
    }
    return results.sorted { $0.0 < $1.0 }.map(\.1)
}
let wall = ContinuousClock.now - started
let lost = outcomes.map(\.lost).reduce(0, +)
let doubled = outcomes.map(\.doubled).reduce(0, +)
let hangs = outcomes.filter(\.hung).count
let wrong = outcomes.filter(\.wrongTerminal).count
let faulted = outcomes.filter { !$0.faults.isEmpty }.count
let faultCount = outcomes.map(\.faults.count).reduce(0, +)
let times = outcomes.map(\.seconds).sorted()
func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
print("answers with faults: \(faulted) of \(outcomes.count) (\(faultCount) faults injected)")
print("lost characters:     \(lost)")
print("doubled characters:  \(doubled)")
print("hangs:               \(hangs)")
print("wrong terminal:      \(wrong)")
print("time per answer:     p50 \(ms(times[times.count / 2])), p95 \(ms(times[times.count * 95 / 100])), max \(ms(times.last!))")
let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
print("wall time:           \(String(format: "%.1f", wallSeconds)) s")
for (index, outcome) in outcomes.enumerated() where outcome.lost + outcome.doubled > 0 || outcome.hung || outcome.wrongTerminal {
    print("  answer \(index): faults \(outcome.faults) lost \(outcome.lost) doubled \(outcome.doubled) hung \(outcome.hung) ending \(outcome.ending)")
}
exit(lost + doubled + hangs + wrong == 0 ? 0 : 1)
