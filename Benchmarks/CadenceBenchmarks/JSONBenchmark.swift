import CadenceBenchmarkKit
import CadenceCore
import Foundation

/// Core's own JSON reader (`JSONValue`, no Foundation) against Foundation's `JSONSerialization` and
/// `JSONDecoder` on the payloads Cadence reads most: token events and a completion with sources.
/// The reason Core has its own reader, measured (README, "Design notes").
enum JSONBenchmark {
    /// The fields `JSONDecoder` decodes: those the client reads.
    struct Token: Decodable {
        let type, content: String
        let sequence: Int
    }

    struct CompletionPayload: Decodable {
        struct SourcePayload: Decodable { let id, title, url, snippet: String }
        let type: String
        let sources: [SourcePayload]
        let follow_ups: [String]
    }

    static func run(cases: [String]) {
        let tokens = (1...200_000).map { #"{"type":"token","content":"word\#($0 % 97) ","sequence":\#($0)}"# }
        let source = #"{"id":"7","title":"Resuming an interrupted stream","url":"cadence://corpus/cadence/resume.md#what-the-reader-sees","snippet":"Cadence is designed not to throw away a half-finished answer when the connection drops: it resumes."}"#
        let completion =
            #"{"type":"complete","sources":["# + Array(repeating: source, count: 40).joined(separator: ",")
            + #"],"follow_ups":["Tell me more about Last-Event-ID","Tell me more about polling"],"sequence":90}"#
        let completions = Array(repeating: completion, count: 2_000)
        print("JSON reading, best of \(Stopwatch().repetitions) runs")
        print("payload                              JSONValue   JSONSerialization        JSONDecoder   (M payloads/s, and how")
        print("                                                   many times as fast JSONValue is)")
        row(key: "token", "token events (\(tokens.count), ~\(average(tokens)) B)", tokens, Token.self)
        row(key: "completion", "completions (\(completions.count), \(average(completions)) B)", completions, CompletionPayload.self)
    }

    static func average(_ payloads: [String]) -> Int {
        payloads.reduce(0) { $0 + $1.utf8.count } / max(payloads.count, 1)
    }

    static func row<T: Decodable>(key: String, _ name: String, _ payloads: [String], _ type: T.Type) {
        let data = payloads.map { Data($0.utf8) }
        let stopwatch = Stopwatch()
        let core = stopwatch.best {
            payloads.reduce(0) { count, text in count + ((try? JSONValue(parsing: text)) == nil ? 0 : 1) }
        }
        let serialization = stopwatch.best {
            data.reduce(0) { count, bytes in count + ((try? JSONSerialization.jsonObject(with: bytes)) == nil ? 0 : 1) }
        }
        let decoder = JSONDecoder()
        let decoded = stopwatch.best {
            data.reduce(0) { count, bytes in count + ((try? decoder.decode(T.self, from: bytes)) == nil ? 0 : 1) }
        }
        guard core.result == payloads.count, serialization.result == payloads.count, decoded.result == payloads.count
        else {
            print("\(name): a reader failed (\(core.result), \(serialization.result), \(decoded.result) of \(payloads.count)); not measured")
            return
        }
        let rate = { (seconds: Double) in Double(payloads.count) / seconds / 1e6 }
        let figures = ReportedFigures.shared
        figures.add("\(key)_m_payloads_s", rate(core.seconds))
        figures.add("\(key)_vs_jsonserialization", serialization.seconds / core.seconds)
        figures.add("\(key)_vs_jsondecoder", decoded.seconds / core.seconds)
        print(
            leftAligned(name, 34) + padded(formatted(rate(core.seconds), decimals: 3), 11)
                + padded(formatted(rate(serialization.seconds), decimals: 3), 12) + " (" + formatted(serialization.seconds / core.seconds, decimals: 2) + "×)"
                + padded(formatted(rate(decoded.seconds), decimals: 3), 12) + " (" + formatted(decoded.seconds / core.seconds, decimals: 2) + "×)")
    }
}
