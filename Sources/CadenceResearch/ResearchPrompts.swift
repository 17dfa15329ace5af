import CadenceCore
import CadenceSearch

/// The instructions sent to the model at each stage, and the readers of its JSON replies.
///
/// Plans and reflections are asked for as JSON objects (and OpenAI-compatible servers get
/// `response_format: {"type": "json_object"}` too), but a model may still answer with prose, wrap
/// the JSON in a code fence, or send nothing usable: the readers take the first `{…}` object in the
/// reply and return `nil` when there is none, so the machine can fall back instead of failing.
enum ResearchPrompts {
    /// Turns for the planning call: the conversation so far, then the question with the instructions.
    static func plan(question: String, history: [ChatTurn], maxQueries: Int) -> [ChatTurn] {
        let system = """
            You plan searches over a collection of documents to answer a user's question. \
            Reply with only a JSON object, no prose and no code fence, of this form: \
            {"queries": ["first search", "second search"]}. \
            Give 1 to \(maxQueries) short keyword queries that together cover the question. \
            When the question follows up on the conversation, make the queries self-contained \
            (name what "it" or "that" refers to).
            """
        return [ChatTurn(role: "system", content: system)] + conversation(history)
            + [ChatTurn(role: "user", content: "Question: \(question)\n\nReply with the JSON object only.")]
    }

    /// Turns for a reflection call: the question and what the searches found so far.
    static func reflect(
        question: String, queriesRun: [String], passages: [RetrievedPassage], maxQueries: Int
    ) -> [ChatTurn] {
        let system = """
            You check whether passages found by a search are enough to answer a question well. \
            Reply with only a JSON object, no prose and no code fence, of this form: \
            {"sufficient": true, "missing": "", "queries": []} when they are enough, or \
            {"sufficient": false, "missing": "what is not covered yet", "queries": ["new search"]} \
            with 1 to \(maxQueries) new keyword queries for what is missing. Do not repeat a query already run.
            """
        var found = "Question: \(question)\n\nQueries already run: "
        found += queriesRun.map { "\"\($0)\"" }.joined(separator: ", ")
        found += "\n\nPassages found (\(passages.count)):\n"
        for passage in passages {
            found += "\n- \(passage.label): \(passage.text.clippedAtWord(to: 300))"
        }
        found += "\n\nReply with the JSON object only."
        return [ChatTurn(role: "system", content: system), ChatTurn(role: "user", content: found)]
    }

    /// Turns for the writing call: the numbered sources and rules, the conversation, the question.
    static func write(
        question: String, history: [ChatTurn], sources: [RetrievedPassage], passageCharacters: Int,
        failedSearches: [String] = [], everySearchFailed: Bool = false
    ) -> [ChatTurn] {
        var system: String
        if sources.isEmpty && !failedSearches.isEmpty && everySearchFailed {
            system = """
                You answer questions from search results, but every search failed this time: \
                \(failedSearches.joined(separator: "; ")). Say plainly, in one or two sentences, that \
                the sources could not be searched so you cannot give a sourced answer, and suggest \
                trying again later. Do not answer from memory and do not invent facts or citations.
                """
        } else if sources.isEmpty {
            system = """
                You answer questions from a collection of documents, but the search found nothing \
                relevant to this question. Say so plainly in one or two sentences, suggest how the \
                question could be narrowed or rephrased, and do not invent facts or citations.
                """
            if !failedSearches.isEmpty {
                system += " Some sources could not be searched (\(failedSearches.joined(separator: "; "))); say that too."
            }
        } else {
            system = """
                You answer the user's question using only the numbered sources below. \
                Write in markdown, clearly and concisely. After each sentence that states something \
                from a source, cite it with its number in square brackets before the period, like \
                this [1], or several like this [1][3]. Cite only the numbers listed below, and only \
                for what that source actually says. If the sources do not answer part of the \
                question, say so instead of guessing.

                Sources:
                """
            for (index, source) in sources.enumerated() {
                let published = [source.details.venue, Source.year(of: source.details.published)].compactMap { $0 }
                let label = published.isEmpty ? source.label : "\(source.label) (\(published.joined(separator: ", ")))"
                system += "\n\n[\(index + 1)] \(label)\n\(source.text.clippedAtWord(to: passageCharacters))"
            }
        }
        return [ChatTurn(role: "system", content: system)] + conversation(history)
            + [ChatTurn(role: "user", content: question)]
    }

    /// The earlier turns that a model should see: user and assistant turns, in order.
    static func conversation(_ history: [ChatTurn]) -> [ChatTurn] {
        history.filter { $0.role == "user" || $0.role == "assistant" }
    }


    // MARK: Reading replies

    /// The first JSON object in a model's reply, or `nil`: one linear pass (`EmbeddedJSONObject`),
    /// which gives up when the answer's task is cancelled.
    static func jsonObject(in reply: String) -> [String: JSONValue]? {
        EmbeddedJSONObject(in: reply).object
    }

    /// The queries of a plan or reflection reply: trimmed, non-empty, without repeats (ignoring
    /// case), at most `limit`, each at most 200 characters.
    static func queries(in object: [String: JSONValue], excluding: [String] = [], limit: Int) -> [String] {
        let values = object["queries"]?.arrayValue ?? object["searches"]?.arrayValue ?? []
        var seen = Set(excluding.map { $0.lowercased() })
        var queries: [String] = []
        for value in values {
            guard let text = value.stringValue ?? value["query"]?.stringValue else { continue }
            let query = String(text.trimmingWhitespace.prefix(200))
            guard !query.isEmpty, seen.insert(query.lowercased()).inserted else { continue }
            queries.append(query)
            if queries.count == limit { break }
        }
        return queries
    }
}

extension String {
    /// The longest start of the string, cut between Unicode scalars, that takes at most `limit`
    /// bytes of UTF-8.
    func prefix(utf8Bytes limit: Int) -> Substring {
        guard limit > 0 else { return self[startIndex..<startIndex] }
        guard utf8.count > limit else { return self[...] }
        var end = utf8.index(startIndex, offsetBy: limit)
        while end > startIndex, end.samePosition(in: unicodeScalars) == nil { end = utf8.index(before: end) }
        return self[..<end]
    }

    /// The string without leading and trailing whitespace and newlines.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
