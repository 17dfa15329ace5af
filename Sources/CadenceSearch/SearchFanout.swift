/// Runs every query of a round on every chosen source at once, each (source, query) pair in a task
/// of its own, and cuts off a pair that takes longer than the per-source timeout or the time left
/// in the answer's search budget, on an injected clock.
///
/// A source fails only when every one of its queries failed; its outcome then carries the first
/// failure's reason. Cancelling the caller cancels every search.
///
/// ```swift
/// let fanout = SearchFanout(sources: [CorpusSearchSource(corpus: corpus), pubmed], clock: ContinuousClock())
/// let outcomes = await fanout.search(["statins myopathy"], limit: 5, timeLeft: .seconds(30))
/// ```
public struct SearchFanout: Sendable {
    public let sources: [any SearchSource]
    /// The longest one source may take for one query.
    public let timeout: Duration
    private let sleep: @Sendable (Duration) async throws -> Void

    public init(sources: [any SearchSource], timeout: Duration = .seconds(10), clock: some Clock<Duration>) {
        self.sources = sources
        self.timeout = timeout
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// The sources' names, in order.
    public var names: [String] { sources.map(\.name) }

    /// One outcome per source, in the order of ``sources``.
    public func search(_ queries: [String], limit: Int, timeLeft: Duration) async -> [SearchOutcome] {
        let limitTime = min(timeout, max(.zero, timeLeft))
        typealias Answer = (source: Int, query: Int, result: Result<[RetrievedPassage], SearchSourceError>)
        var answers: [[Result<[RetrievedPassage], SearchSourceError>?]] = Array(
            repeating: Array(repeating: nil, count: queries.count), count: sources.count)
        await withTaskGroup(of: Answer.self) { group in
            for (sourceIndex, source) in sources.enumerated() {
                for (queryIndex, query) in queries.enumerated() {
                    group.addTask {
                        let result = await Self.run(source, query, limit: limit, within: limitTime, sleep: sleep)
                        return (sourceIndex, queryIndex, result)
                    }
                }
            }
            for await answer in group {
                answers[answer.source][answer.query] = answer.result
            }
        }
        return sources.enumerated().map { index, source in
            let results = answers[index].map { result -> [RetrievedPassage] in
                guard case .success(let passages)? = result else { return [] }
                return passages.map { passage in
                    var passage = passage
                    passage.source = source.name
                    return passage
                }
            }
            let failures = answers[index].compactMap { result -> SearchSourceError? in
                if case .failure(let error)? = result { error } else { nil }
            }
            let cancelled = answers[index].contains { $0 == nil }
            let failed = !queries.isEmpty && (failures.count == queries.count || cancelled && failures.count > 0)
            return SearchOutcome(
                source: source.name, results: results, failure: failed ? failures.first?.message : nil)
        }
    }

    /// One query on one source, cut off after `limit`.
    private static func run(
        _ source: any SearchSource, _ query: String, limit: Int, within time: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) async -> Result<[RetrievedPassage], SearchSourceError> {
        guard time > .zero else {
            return .failure(SearchSourceError(.timeout, "the search budget was spent"))
        }
        return await withTaskGroup(of: Result<[RetrievedPassage], SearchSourceError>?.self) { group in
            group.addTask {
                do {
                    return .success(Array(try await source.search(query, limit: limit).prefix(limit)))
                } catch let error as SearchSourceError {
                    return .failure(error)
                } catch is CancellationError {
                    return nil
                } catch {
                    return .failure(SearchSourceError(.unreachable, "\(error)"))
                }
            }
            group.addTask {
                do {
                    try await sleep(time)
                } catch {
                    return nil
                }
                return .failure(SearchSourceError(.timeout, "no answer within \(time.secondsText) s"))
            }
            var first: Result<[RetrievedPassage], SearchSourceError>?
            for await result in group {
                if let result {
                    first = result
                    break
                }
            }
            group.cancelAll()
            return first ?? .failure(SearchSourceError(.timeout, "cancelled"))
        }
    }
}
