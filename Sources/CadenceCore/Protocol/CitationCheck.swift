/// The support check of one citation in a written answer: which sentence cited which source, and
/// how much of the sentence the source backs.
///
/// A research server writes the checks into the `complete` event's metadata, under `"citations"`
/// (see docs/protocol.md); apps read them back from there to mark the citations a source may not
/// support.
///
/// ```swift
/// let check = CitationCheck(ordinal: 2, source: 2, sentence: "Bananas are blue", score: 0, supported: false)
/// let metadata: [String: JSONValue] = ["citations": [check.json]]
/// CitationCheck.list(in: metadata).filter { !$0.supported }   // [check]
/// ```
public struct CitationCheck: Sendable, Hashable {
    /// The citation's position among all citation numbers sent in the answer, from 1 (`[1][2]` counts two).
    public var ordinal: Int
    /// The source number cited, from 1.
    public var source: Int
    /// The claim the citation backs: the words before it in its sentence, or the whole sentence.
    public var sentence: String
    /// The share of the claim's content words found in the source, 0…1.
    public var score: Double
    /// Whether `score` reached the processor's support threshold.
    public var supported: Bool

    public init(ordinal: Int, source: Int, sentence: String, score: Double, supported: Bool) {
        self.ordinal = ordinal
        self.source = source
        self.sentence = sentence
        self.score = score
        self.supported = supported
    }

    /// The check as the `complete` event's metadata lists it (see docs/protocol.md).
    public var json: JSONValue {
        [
            "ordinal": .number(Double(ordinal)),
            "source": .number(Double(source)),
            "supported": .bool(supported),
            "score": .number((score * 100).rounded() / 100),
            "sentence": .string(sentence),
        ]
    }

    /// A check read back from its JSON; `nil` unless it has whole-number `ordinal` and `source` and
    /// a boolean `supported`. A missing `sentence` reads as empty, a missing `score` as 0.
    public init?(json: JSONValue) {
        guard let ordinal = json["ordinal"]?.doubleValue.flatMap(Int.init(exactly:)),
            let source = json["source"]?.doubleValue.flatMap(Int.init(exactly:)),
            case .bool(let supported)? = json["supported"]
        else { return nil }
        self.init(
            ordinal: ordinal, source: source, sentence: json["sentence"]?.stringValue ?? "",
            score: json["score"]?.doubleValue ?? 0, supported: supported)
    }

    /// The checks a completion's metadata lists under `"citations"`, in order; malformed entries
    /// are skipped, and metadata without the list has none.
    public static func list(in metadata: [String: JSONValue]) -> [CitationCheck] {
        (metadata["citations"]?.arrayValue ?? []).compactMap(CitationCheck.init(json:))
    }
}
