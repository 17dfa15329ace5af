public import CadenceCore

/// The support check of one citation in a written answer: which sentence cited which source, and
/// how much of the sentence the source backs.
///
/// ```swift
/// var processor = CitationProcessor(sources: ["Resuming uses Last-Event-ID."])
/// _ = processor.feed("Streams resume with Last-Event-ID [1].")
/// _ = processor.finish()
/// processor.checks[0].supported  // true
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
}
