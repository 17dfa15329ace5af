import CadenceCore
import CadenceEngine

extension ResearchMachine {
    /// The engine name reported in the completion's metadata.
    public static let engineName = "model-research"
    /// The most citation checks the `complete` metadata lists, the first in text order; the counts
    /// (`citations_total`, `citations_supported`, …) cover every citation.
    public static let maxListedCitations = 1_000

    /// The `complete` event's metadata: what the research did, what it cost, and how its citations checked out.
    func metadata(finish: FinishReason, now: Duration) -> [String: JSONValue] {
        var metadata: [String: JSONValue] = [
            "engine": .string(Self.engineName),
            "finish_reason": .string(finish.name),
            "rounds": .number(Double(rounds.count)),
            "queries": .array(rounds.flatMap { $0 }.map(JSONValue.string)),
            "passages": .number(Double(found.count)),
            "model_calls": .number(Double(calls)),
            "total_ms": .number(AnswerBudget.milliseconds(now)),
        ]
        if let model { metadata["model"] = .string(model) }
        metadata["search_sources"] = .array(searchSources.map(JSONValue.string))
        if !searchFailures.isEmpty {
            metadata["search_failures"] = .array(
                searchFailures.map { .object(["source": .string($0.source), "reason": .string($0.reason)]) })
        }
        for key in ["planning_ms", "search_ms", "reflection_ms", "synthesis_ms"] {
            metadata[key] = .number(AnswerBudget.milliseconds(stageTimes[key] ?? .zero))
        }
        metadata["usage"] = AnswerMetadata.usage(usage)
        metadata["budget"] = AnswerBudget.metadata(
            time: now, timeLimit: configuration.maxAnswerTime, tokens: (tokensUsed, configuration.maxAnswerTokens))
        let checks = citations.checks
        let listed = checks.prefix(Self.maxListedCitations)
        metadata["citations"] = .array(listed.map(\.json))
        metadata["citations_total"] = .number(Double(checks.count))
        metadata["citations_omitted"] = .number(Double(checks.count - listed.count))
        metadata["citations_supported"] = .number(Double(checks.filter(\.supported).count))
        metadata["citations_unsupported"] = .number(Double(checks.filter { !$0.supported }.count))
        metadata["citations_dropped"] = .number(Double(citations.dropped.count))
        return metadata
    }
}
