import CadenceCore
public import CadenceSearch

extension ResearchMachine {
    /// The plan call ended: read its queries (or fall back to the question) and run round 1.
    mutating func planned(_ reply: String, now: Duration) -> [Action] {
        let limit = configuration.maxQueries
        let object = ResearchPrompts.jsonObject(in: reply)
        var queries = object.map { ResearchPrompts.queries(in: $0, limit: limit) } ?? []
        let message: String
        if queries.isEmpty {
            queries = [question]
            message =
                object == nil
                ? "The model's plan was not a JSON object; searching for the question itself"
                : "The model planned no searches; searching for the question itself"
        } else {
            message = "The model planned \(queries.count) search\(queries.count == 1 ? "" : "es")"
        }
        return [.emit(.planningComplete(message: message, queries: queries))] + startRound(queries, now: now)
    }

    /// Announces a round and asks the driver to run its queries on every source; with the search
    /// budget spent, writes with what was found instead.
    mutating func startRound(_ queries: [String], now: Duration) -> [Action] {
        guard searchTimeLeft > .zero else {
            let spent = "The search budget of \(configuration.searchBudget.secondsText) s is spent"
            return select(reason: spent, now: now)
        }
        rounds.append(queries)
        let round = rounds.count
        let message =
            round == 1
            ? "Searching \(queries.count) quer\(queries.count == 1 ? "y" : "ies")"
            : "Searching again: \(queries.count) new quer\(queries.count == 1 ? "y" : "ies")"
        state = .searching(startedAt: now)
        return [.emit(.roundStarted(round: round, message: message))]
            + searchSources.map { .emit(.searching(source: $0)) } + [.search(queries)]
    }

    /// The search time the answer has left: ``ResearchConfiguration/searchBudget`` less what its
    /// rounds took so far.
    public var searchTimeLeft: Duration {
        configuration.searchBudget - (stageTimes["search_ms"] ?? .zero)
    }

    /// The round's searches are done on one source (the first of ``searchSources``), one result
    /// list per query, best first.
    public mutating func searchCompleted(_ results: [[RetrievedPassage]], now: Duration) -> [Action] {
        searchCompleted([SearchOutcome(source: searchSources.first ?? "corpus", results: results)], now: now)
    }

    /// The round's searches are done: one outcome per source, each with one result list per query.
    /// Results are merged across sources and queries, the same source found twice (by URL, DOI or
    /// PMID) kept once; a failed source is reported and the research goes on without it.
    public mutating func searchCompleted(_ outcomes: [SearchOutcome], now: Duration) -> [Action] {
        guard case .searching(let startedAt) = state else { return [] }
        stageTimes["search_ms", default: .zero] += now - startedAt
        var actions: [Action] = []
        var added = 0
        var addedPositions: [Int] = []
        for outcome in outcomes {
            if let failure = outcome.failure { searchFailures.append((outcome.source, failure)) } else { searchesAnswered += 1 }
            for results in outcome.results {
                let hits = Array(results.prefix(configuration.passagesPerQuery))
                // Scores of different queries and sources are not comparable: keep each relative to its list's best.
                let best = hits.first?.score ?? 1
                for hit in hits {
                    var relative = hit
                    relative.score = best > 0 ? hit.score / best : 0
                    if let position = hit.identities.first(where: { foundIndex[$0] != nil }).flatMap({ foundIndex[$0] }) {
                        found[position].score = max(found[position].score, relative.score)
                        found[position].details.fill(from: hit.details)
                        for key in hit.identities { foundIndex[key] = position }
                    } else {
                        for key in hit.identities { foundIndex[key] = found.count }
                        addedPositions.append(found.count)
                        found.append(relative)
                        added += 1
                    }
                }
            }
            actions.append(.emit(outcome.event))
        }
        let everySourceFailed = !outcomes.isEmpty && outcomes.allSatisfy { $0.failure != nil }
        let pages = pagesToRead(among: addedPositions)
        guard pages.isEmpty else {
            state = .readingPages(startedAt: now, added: added, everySourceFailed: everySourceFailed)
            return actions + [.readPages(urls: pages, queries: rounds.last ?? [])]
        }
        return actions + roundEnded(added: added, everySourceFailed: everySourceFailed, now: now)
    }

    /// The round's searches (and page reading) are over: report it, then reflect, or write when the
    /// round added nothing or was the last.
    mutating func roundEnded(added: Int, everySourceFailed: Bool, now: Duration) -> [Action] {
        let round = rounds.count
        let documents = Set(found.map(\.title)).count
        var status = added == 0 ? "no new passages" : "\(added) new passage\(added == 1 ? "" : "s")"
        if let pages = roundPages.take() { status += "; " + pages }
        let actions: [Action] = [.emit(.roundComplete(round: round, sources: documents, status: status))]

        if added == 0 {
            let why =
                everySourceFailed
                ? "Every search source failed" : found.isEmpty ? "Nothing matched the searches" : "Round \(round) added no new passage"
            return actions + select(reason: why, now: now)
        }
        if round >= configuration.maxRounds {
            return actions + select(reason: "Reached the limit of \(configuration.maxRounds) rounds", now: now)
        }
        let reflect = ModelCall(
            purpose: .reflect,
            turns: ResearchPrompts.reflect(
                question: question, queriesRun: rounds.flatMap { $0 }, passages: ranked,
                maxQueries: configuration.maxQueries),
            wantsJSON: true, attempt: 1)
        let message = "Asking the model whether \(found.count) passage\(found.count == 1 ? "" : "s") cover the question"
        return actions + [.emit(.reflectionStarted(message: message))] + call(reflect, now: now)
    }

    /// The reflection call ended: search again, or write.
    mutating func reflected(_ reply: String, now: Duration) -> [Action] {
        guard let object = ResearchPrompts.jsonObject(in: reply) else {
            return [
                .emit(
                    .reflectionComplete(
                        message: "The model's reflection was not a JSON object; writing with what was found",
                        sufficient: nil))
            ] + select(reason: nil, now: now)
        }
        let next = ResearchPrompts.queries(
            in: object, excluding: rounds.flatMap { $0 }, limit: configuration.maxQueries)
        let missing = (object["missing"]?.stringValue ?? "").trimmingWhitespace
        let sufficient = object["sufficient"]?.boolValue ?? next.isEmpty
        if sufficient || next.isEmpty {
            unexplored = sufficient ? next : []
            let message =
                sufficient
                ? "The model found the passages sufficient"
                : "The passages leave gaps (\(missing.isEmpty ? "unnamed" : missing)), but no new search was proposed"
            return [.emit(.reflectionComplete(message: message, sufficient: sufficient))]
                + select(reason: nil, now: now)
        }
        let gap = missing.isEmpty ? "" : "Missing: \(missing). "
        return [.emit(.reflectionComplete(message: gap + "Searching again", sufficient: false))]
            + startRound(next, now: now)
    }

    /// Every passage found, best relative score first (ties: first found first).
    var ranked: [RetrievedPassage] {
        found.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
    }

    /// Picks the sources, sends them, and asks the model to write.
    mutating func select(reason: String?, now: Duration) -> [Action] {
        var perDocument: [String: Int] = [:]
        var chosen: [RetrievedPassage] = []
        for passage in ranked where chosen.count < configuration.maxSources {
            guard perDocument[String(passage.url.documentPart), default: 0] < configuration.maxSourcesPerDocument else {
                continue
            }
            perDocument[String(passage.url.documentPart), default: 0] += 1
            chosen.append(passage)
        }
        sources = chosen
        citations = CitationProcessor(
            sources: chosen.map { $0.label + "\n" + $0.text }, supportThreshold: configuration.supportThreshold)
        var message = chosen.isEmpty ? "No passage to cite" : "Choosing the best \(chosen.count) of \(found.count) passages"
        if let reason { message = reason + "; " + message.prefix(1).lowercased() + message.dropFirst() }
        let write = ModelCall(
            purpose: .write,
            turns: ResearchPrompts.write(
                question: question, history: request.history, sources: chosen,
                passageCharacters: configuration.passageCharacters,
                failedSearches: found.isEmpty ? searchFailures.map { "\($0.source) (\($0.reason))" } : [],
                everySearchFailed: searchesAnswered == 0),
            wantsJSON: false, attempt: 1)
        let writing =
            chosen.isEmpty
            ? (searchFailures.isEmpty || !found.isEmpty || searchesAnswered > 0
                ? "Nothing relevant found; the model says so" : "The searches failed; the model says so")
            : "Writing the answer from \(chosen.count) source\(chosen.count == 1 ? "" : "s")"
        return [
            .emit(.sourceSelectionStarted(message: message)),
            .emit(.sourcesReady(sourceList)),
            .emit(.synthesisStarted(message: writing)),
        ] + call(write, now: now)
    }

    /// The sources as the protocol sends them, numbered from 1.
    var sourceList: [Source] {
        sources.enumerated().map { index, passage in
            Source(
                id: String(index + 1), title: passage.label, url: passage.url,
                snippet: Self.snippet(of: passage), details: passage.details)
        }
    }

    /// What a source list shows of a passage: the whole text when it fits in `characters`, else
    /// the index's snippet (the text around the words searched for, where the opening may not
    /// show them), else the opening.
    static func snippet(of passage: RetrievedPassage, characters: Int = 240) -> String {
        if passage.text.count > characters, let snippet = passage.snippet, !snippet.isEmpty { return snippet }
        return passage.text.clippedAtWord(to: characters)
    }

    /// The writing call ended cleanly: send what the citation processor held, then `complete`.
    mutating func wrote(finish: FinishReason, now: Duration) -> [Action] {
        var actions: [Action] = []
        let tail = citations.finish()
        if !tail.isEmpty { actions.append(.emit(.token(tail))) }
        let completion = Completion(sources: sourceList, metadata: metadata(finish: finish, now: now), followUps: followUps)
        state = .finished
        return actions + [.emit(.complete(completion)), .finish]
    }

    /// Searches the model proposed but that were not needed, as follow-up questions.
    var followUps: [String] {
        unexplored.prefix(3).map { "Tell me more about \($0)" }
    }
}

extension String {
    /// The URL without its `#fragment`: the document a passage belongs to.
    var documentPart: Substring {
        self[..<(firstIndex(of: "#") ?? endIndex)]
    }
}
