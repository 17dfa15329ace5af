public import CadenceCore

/// What one source gave for one round's queries: a result list per query, or why it failed.
///
/// ```swift
/// let outcome = SearchOutcome(source: "pubmed", results: [[], [paper]], failure: nil)
/// outcome.count   // 1
/// ```
public struct SearchOutcome: Sendable, Hashable {
    /// The source's name.
    public var source: String
    /// One list per query, in the order of the queries; empty for the queries that failed.
    public var results: [[RetrievedPassage]]
    /// Why the source failed, when every one of its queries failed.
    public var failure: String?

    public init(source: String, results: [[RetrievedPassage]], failure: String? = nil) {
        self.source = source
        self.results = results
        self.failure = failure
    }

    /// How many passages the source found over all the queries.
    public var count: Int { results.reduce(0) { $0 + $1.count } }

    /// The event that reports this outcome: `search_complete` or `search_failed`.
    public var event: ResearchEvent.Kind {
        if let failure { return .searchFailed(source: source, reason: failure) }
        return .searchComplete(count: count, source: source)
    }
}
