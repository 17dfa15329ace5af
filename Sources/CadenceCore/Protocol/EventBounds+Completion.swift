extension EventBounds {
    /// The longest each field of a source is sent when its event is over the limit, in bytes.
    static let sourceFieldBytes = (id: 64, title: 1 << 10, url: 8 << 10, snippet: 1 << 10)
    /// A metadata member this large is left out of a `complete` over the limit before any source.
    static let largeMetadataBytes = 64 << 10

    /// A `complete` cut to the budget. In order, until it fits: each source's fields are shortened;
    /// metadata members over 64 KiB are left out, largest first; sources, then follow-ups, are dropped
    /// from the end; then the other metadata members, largest first.
    /// `metadata.trimmed` says what was cut (`metadata_keys`, `sources_omitted`, `follow_ups_omitted`).
    func trimmed(_ completion: Completion) -> Completion {
        var result = completion
        result.sources = completion.sources.map(Self.shortenedFields)
        var notes: [String: JSONValue] = [:]
        // Sizes of each part, encoded once: trimming is linear in the event's size.
        let sourceSizes = result.sources.map { Self.size($0.json) + 1 }
        let followUpSizes = result.followUps.map { Self.size(.string($0)) + 1 }
        var metadataSizes = result.metadata.map { (key: $0.key, size: Self.size(.string($0.key)) + Self.size($0.value) + 2) }
        let room = budget - 1024  // for the notes and the event's own members
        var total = sourceSizes.reduce(0, +) + followUpSizes.reduce(0, +) + metadataSizes.reduce(0) { $0 + $1.size } + 64
        metadataSizes.sort { $0.size > $1.size }
        var leftOut: [String] = []
        func leaveOut(_ member: (key: String, size: Int)) {
            result.metadata[member.key] = nil
            leftOut.append(member.key)
            total -= member.size
        }
        // Large metadata members go first, then sources and follow-ups from the end, then the rest
        // of the metadata: the small members (engine, counts) are cheap and worth keeping.
        for member in metadataSizes where total > room && member.size > Self.largeMetadataBytes { leaveOut(member) }
        var sourcesKept = result.sources.count
        while total > room, sourcesKept > 0 {
            sourcesKept -= 1
            total -= sourceSizes[sourcesKept]
        }
        var followUpsKept = result.followUps.count
        while total > room, followUpsKept > 0 {
            followUpsKept -= 1
            total -= followUpSizes[followUpsKept]
        }
        for member in metadataSizes where total > room && result.metadata[member.key] != nil { leaveOut(member) }
        if !leftOut.isEmpty { notes["metadata_keys"] = .array(leftOut.sorted().map(JSONValue.string)) }
        if sourcesKept < result.sources.count {
            notes["sources_omitted"] = .number(Double(result.sources.count - sourcesKept))
            result.sources.removeLast(result.sources.count - sourcesKept)
        }
        if followUpsKept < result.followUps.count {
            notes["follow_ups_omitted"] = .number(Double(result.followUps.count - followUpsKept))
            result.followUps.removeLast(result.followUps.count - followUpsKept)
        }
        notes["limit_bytes"] = .number(Double(maxEventBytes))
        result.metadata["trimmed"] = .object(notes)
        return result
    }

    /// The sources that fit in `budget` bytes of JSON, each with its fields shortened, and how many
    /// were left out from the end.
    func fitted(_ sources: [Source], budget: Int) -> (kept: [Source], omitted: Int) {
        var kept: [Source] = []
        var used = 64
        for source in sources.lazy.map(Self.shortenedFields) {
            used += Self.size(source.json) + 1
            guard used <= budget else { break }
            kept.append(source)
        }
        return (kept, sources.count - kept.count)
    }

    /// A source whose fields are cut to ``sourceFieldBytes``, each cut one ending in a note; of its
    /// details, each string is cut to 256 bytes and at most ``maxListedAuthors`` authors are kept.
    static func shortenedFields(_ source: Source) -> Source {
        let caps = sourceFieldBytes
        func cut(_ text: String?) -> String? { text.map { shortened($0, to: 256) } }
        let details = source.details
        return Source(
            id: shortened(source.id, to: caps.id), title: shortened(source.title, to: caps.title),
            url: shortened(source.url, to: caps.url), snippet: shortened(source.snippet, to: caps.snippet),
            details: SourceDetails(
                kind: details.kind.map { SourceKind(rawValue: shortened($0.rawValue, to: 64)) },
                published: cut(details.published), authors: details.authors.map { $0.prefix(maxListedAuthors).map { shortened($0, to: 256) } },
                venue: cut(details.venue), pmid: cut(details.pmid), arxiv: cut(details.arxiv), doi: cut(details.doi)))
    }

    /// The most authors a bounded source lists.
    static let maxListedAuthors = 50
}
