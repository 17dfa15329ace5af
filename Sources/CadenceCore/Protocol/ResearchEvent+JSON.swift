extension ResearchEvent {
    /// The event's `data:` payload: a JSON object with `"type"` and, when known, `"sequence"`.
    public var json: JSONValue {
        var members = kind.jsonMembers
        members["type"] = .string(kind.wireType)
        if let sequence { members["sequence"] = .number(Double(sequence)) }
        return .object(members)
    }

    /// Builds an event from its JSON payload.
    ///
    /// A `type` this client does not know gives ``Kind/unknown(type:json:)``. A known type whose
    /// members are missing or of the wrong kind throws, naming the event and the member.
    public init(json: JSONValue) throws(ResearchDecodingError) {
        guard case .object(let members) = json else {
            throw ResearchDecodingError(.notAnObject, eventType: nil, detail: "the payload is not a JSON object")
        }
        guard let type = members["type"]?.stringValue else {
            throw ResearchDecodingError(.missingMember, eventType: nil, detail: "the payload has no string \"type\"")
        }
        let fields = JSONFields(type: type, members: members)
        self.init(sequence: try fields.optionalInt("sequence"), kind: try Kind(type: type, fields: fields))
    }
}

extension ResearchEvent.Kind {
    fileprivate var jsonMembers: [String: JSONValue] {
        switch self {
        case .token(let content): ["content": .string(content)]
        case .flushTokens: [:]
        case .reasoning(let content), .refusal(let content): ["content": .string(content)]
        case .toolCall(let call): call.fields
        case .tierSelected(let tier, let reason): ["tier": .string(tier), "reason": reason.map(JSONValue.string)]
            .compactMapValues { $0 }
        case .searching(let source): ["source": .string(source)]
        case .searchComplete(let count, let source): ["count": .number(Double(count)), "source": .string(source)]
        case .searchFailed(let source, let reason): ["source": .string(source), "reason": .string(reason)]
        case .sourcesReady(let sources): ["sources": .array(sources.map(\.json))]
        case .planningStarted(let message), .reflectionStarted(let message), .sourceSelectionStarted(let message),
            .synthesisStarted(let message):
            Self.message(message)
        case .planningComplete(let message, let queries):
            Self.message(message).merging(["queries": .array(queries.map(JSONValue.string))]) { $1 }
        case .roundStarted(let round, let message):
            Self.message(message).merging(["round": .number(Double(round))]) { $1 }
        case .roundComplete(let round, let sources, let status):
            ["round": .number(Double(round)), "sources": .number(Double(sources)), "status": .string(status)]
        case .reflectionComplete(let message, let sufficient):
            Self.message(message).merging(sufficient.map { ["sufficient": .bool($0)] } ?? [:]) { $1 }
        case .complete(let completion):
            [
                "sources": .array(completion.sources.map(\.json)),
                "metadata": .object(completion.metadata),
                "follow_ups": .array(completion.followUps.map(JSONValue.string)),
            ]
        case .error(let code, let message): ["code": .string(code), "message": .string(message)]
        case .unknown(_, let json): json.objectValue ?? [:]
        }
    }

    private static func message(_ message: String?) -> [String: JSONValue] {
        message.map { ["message": .string($0)] } ?? [:]
    }

    fileprivate init(type: String, fields: JSONFields) throws(ResearchDecodingError) {
        switch type {
        case "token": self = .token(try fields.string("content"))
        case "flush_tokens": self = .flushTokens
        case "reasoning": self = .reasoning(try fields.string("content"))
        case "refusal": self = .refusal(try fields.string("content"))
        case "tool_call":
            self = .toolCall(
                ToolCall(
                    id: try fields.optionalString("id") ?? "", name: try fields.string("name"),
                    arguments: try fields.optionalString("arguments") ?? ""))
        case "tier_selected": self = .tierSelected(tier: try fields.string("tier"), reason: try fields.optionalString("reason"))
        case "searching": self = .searching(source: try fields.string("source"))
        case "search_complete":
            self = .searchComplete(count: try fields.int("count"), source: try fields.string("source"))
        case "search_failed":
            self = .searchFailed(
                source: try fields.string("source"),
                reason: try fields.optionalString("reason") ?? "the server gave no reason")
        case "sources_ready": self = .sourcesReady(try fields.sources("sources"))
        case "planning_started": self = .planningStarted(message: try fields.optionalString("message"))
        case "planning_complete":
            self = .planningComplete(
                message: try fields.optionalString("message"), queries: try fields.optionalStrings("queries"))
        case "round_started":
            self = .roundStarted(round: try fields.int("round"), message: try fields.optionalString("message"))
        case "round_complete":
            self = .roundComplete(
                round: try fields.int("round"), sources: try fields.int("sources"),
                status: try fields.optionalString("status") ?? "")
        case "reflection_started": self = .reflectionStarted(message: try fields.optionalString("message"))
        case "reflection_complete":
            self = .reflectionComplete(
                message: try fields.optionalString("message"), sufficient: try fields.optionalBool("sufficient"))
        case "source_selection_started": self = .sourceSelectionStarted(message: try fields.optionalString("message"))
        case "synthesis_started": self = .synthesisStarted(message: try fields.optionalString("message"))
        case "complete":
            self = .complete(
                Completion(
                    sources: fields.members["sources"] == nil ? [] : try fields.sources("sources"),
                    metadata: fields.members["metadata"]?.objectValue ?? [:],
                    followUps: try fields.optionalStrings("follow_ups")))
        case "error":
            self = .error(
                code: try fields.optionalString("code") ?? "error",
                message: try fields.optionalString("message") ?? "the server reported an error without a message")
        default:
            // The sequence number lives on the event; the rest of the payload is kept whole.
            self = .unknown(type: type, json: .object(fields.members.filter { $0.key != "sequence" }))
        }
    }
}

extension Source {
    /// The source as a JSON object; the optional members only when known.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "title": .string(title), "url": .string(url), "snippet": .string(snippet),
        ]
        let optional: [String: String?] = [
            "kind": details.kind?.rawValue, "published": details.published, "venue": details.venue,
            "pmid": details.pmid, "arxiv": details.arxiv, "doi": details.doi,
        ]
        for case (let key, let value?) in optional { members[key] = .string(value) }
        if let authors = details.authors { members["authors"] = .array(authors.map(JSONValue.string)) }
        return .object(members)
    }
}

extension SourceDetails {
    /// Reads a source object's optional members, tolerantly: a member of the wrong type is left out
    /// rather than failing the event, since these members only describe the source.
    init(json object: [String: JSONValue]) {
        func text(_ key: String) -> String? {
            object[key]?.stringValue ?? object[key]?.intValue.map(String.init)
        }
        self.init(
            kind: text("kind").map(SourceKind.init(rawValue:)), published: text("published"),
            authors: object["authors"]?.arrayValue.map { $0.compactMap(\.stringValue) }, venue: text("venue"),
            pmid: text("pmid"), arxiv: text("arxiv"), doi: text("doi"))
    }
}

/// Typed access to an event's members, with errors that name the event and the member.
private struct JSONFields {
    let type: String
    let members: [String: JSONValue]

    private func failure(_ key: String, _ expected: String) -> ResearchDecodingError {
        let code: ResearchDecodingError.Code = members[key] == nil ? .missingMember : .wrongType
        let found = members[key] == nil ? "it is missing" : "found \(members[key]!.jsonText)"
        return ResearchDecodingError(code, eventType: type, detail: "\"\(key)\" must be \(expected); \(found)")
    }

    /// Member `key`, read by `read` (`\.stringValue`, …); `expected` names what it must be.
    private func member<Value>(
        _ key: String, _ read: (JSONValue) -> Value?, _ expected: String
    ) throws(ResearchDecodingError) -> Value {
        guard let value = members[key].flatMap(read) else { throw failure(key, expected) }
        return value
    }

    /// Member `key` as ``member(_:_:_:)`` reads it, or nil when it is missing or null.
    private func optionalMember<Value>(
        _ key: String, _ read: (JSONValue) -> Value?, _ expected: String
    ) throws(ResearchDecodingError) -> Value? {
        guard let value = members[key], value != .null else { return nil }
        return try member(key, read, expected)
    }

    func string(_ key: String) throws(ResearchDecodingError) -> String {
        try member(key, \.stringValue, "a string")
    }

    func optionalString(_ key: String) throws(ResearchDecodingError) -> String? {
        try optionalMember(key, \.stringValue, "a string")
    }

    func int(_ key: String) throws(ResearchDecodingError) -> Int {
        try member(key, \.intValue, "an integer")
    }

    func optionalInt(_ key: String) throws(ResearchDecodingError) -> Int? {
        try optionalMember(key, \.intValue, "an integer")
    }

    func optionalBool(_ key: String) throws(ResearchDecodingError) -> Bool? {
        try optionalMember(key, \.boolValue, "true or false")
    }

    func optionalStrings(_ key: String) throws(ResearchDecodingError) -> [String] {
        guard let value = members[key], value != .null else { return [] }
        guard let array = value.arrayValue else { throw failure(key, "an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw failure(key, "an array of strings") }
            strings.append(string)
        }
        return strings
    }

    func sources(_ key: String) throws(ResearchDecodingError) -> [Source] {
        guard let array = members[key]?.arrayValue else { throw failure(key, "an array of sources") }
        var sources: [Source] = []
        for (index, element) in array.enumerated() {
            guard let object = element.objectValue else { throw failure(key, "an array of source objects") }
            let id = object["id"]?.stringValue ?? object["id"]?.intValue.map(String.init) ?? String(index + 1)
            guard let title = object["title"]?.stringValue, let url = object["url"]?.stringValue else {
                throw failure(key, "sources with string \"title\" and \"url\"")
            }
            sources.append(
                Source(
                    id: id, title: title, url: url, snippet: object["snippet"]?.stringValue ?? "",
                    details: SourceDetails(json: object)))
        }
        return sources
    }
}
