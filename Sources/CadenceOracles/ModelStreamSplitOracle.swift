public import CadenceCore

/// A provider stream decodes to the same typed events for any split of the same bytes, with the
/// dialect named and with it detected from the content; and, as `ModelEvent` promises, every
/// choice that appears ends with exactly one finish. The dialect's decoder gives the same events for
/// each SSE event read from its bytes (`SSEBatch`) as from its `String`.
///
/// One oracle per dialect (``OpenAIChatSplitOracle`` …) so that each has its own fuzz target and
/// seed corpus. The options byte chooses the limits (the defaults, or small ones the payload can
/// exceed) with its low seven bits, and with its high bit whether the fuzzer checks the dialect named
/// (0) or detected from the content (1); ``FuzzOracle/checkEveryVariant(_:)`` checks both.
public protocol ModelStreamSplitOracle: FuzzOracle {
    static var dialect: ModelDialect { get }
}

extension ModelStreamSplitOracle {
    public static var target: String { dialect.rawValue }

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        try check(input, dialect: input.options & 0x80 == 0 ? dialect : nil)
    }

    public static func checkEveryVariant(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        try check(input, dialect: dialect)
        try check(input, dialect: nil)
    }

    /// Decodes the payload whole and in the header's chunks, with `dialect` or detecting it.
    static func check(_ input: FuzzInput, dialect: ModelDialect?) throws(OracleViolation) {
        let limits = SSESplitOracle.limits[Int(input.options & 0x7F) % SSESplitOracle.limits.count]
        let named = dialect?.rawValue ?? "auto-detected"
        let make = { dialect.map { ModelStreamDecoder(dialect: $0, limits: limits) } ?? .autoDetecting(limits: limits) }
        let whole = decode([input.payload[...]], with: make())
        for event in whole.events { _ = event.jsonLine() }
        if whole.error == nil { try checkChoicesFinishOnce(whole.events, named) }
        let split = decode(input.chunks(of: input.payload), with: make())
        try OracleViolation.expect(
            split, equals: whole, "\(named): chunks \(input.chunkLengths(total: input.payload.count)) differ from whole"
        )
        if let dialect { try checkBytesDecodeLikeStrings(input.payload, dialect: dialect, limits: limits) }
    }

    /// The SSE events of `payload`, decoded by the dialect's decoder from their bytes and from their
    /// `String`s, give the same events.
    static func checkBytesDecodeLikeStrings(
        _ payload: [UInt8], dialect: ModelDialect, limits: SSELimits
    ) throws(OracleViolation) {
        guard var strings = dialect.makeSSEDialectDecoder(), var borrowed = dialect.makeSSEDialectDecoder() else {
            return
        }
        var sse = SSEDecoder(limits: limits)
        var expected: [ModelEvent] = []
        for case .event(let event) in (try? sse.feed(payload)) ?? [] { expected += strings.decode(event) }
        var batched = SSEDecoder(limits: limits)
        var batch = SSEBatch()
        try? batched.feed(payload, into: &batch)  // the items before a limit error are in the batch
        var events: [ModelEvent] = []
        for case .event(let event) in batch { events += borrowed.decode(event) }
        try OracleViolation.expect(
            events + borrowed.finish(), equals: expected + strings.finish(),
            "\(dialect.rawValue): events decoded from bytes differ from those from strings")
    }

    /// Every choice that appears ends with exactly one finish, and nothing follows it in that choice.
    static func checkChoicesFinishOnce(_ events: [ModelEvent], _ named: String) throws(OracleViolation) {
        var finished: Set<Int> = []
        for event in events {
            guard let choice = event.choice else { continue }
            if finished.contains(choice) {
                throw OracleViolation("\(named): choice \(choice) has \(event.jsonLine()) after its finish")
            }
            if case .finish = event { finished.insert(choice) }
        }
        let unfinished = Set(events.compactMap(\.choice)).subtracting(finished)
        guard unfinished.isEmpty, !finished.isEmpty else {
            throw OracleViolation(
                "\(named): choices \(unfinished.sorted()) never finish (finished: \(finished.sorted()))")
        }
    }

    /// Feeds `chunks` then finishes, stopping at the first error.
    static func decode(_ chunks: [ArraySlice<UInt8>], with decoder: ModelStreamDecoder) -> ModelStreamOutcome {
        var decoder = decoder
        var outcome = ModelStreamOutcome()
        do throws(ModelStreamError) {
            for chunk in chunks { outcome.events += try decoder.feed(chunk) }
            outcome.events += try decoder.finish()
        } catch {
            outcome.error = error.code
        }
        return outcome
    }
}

/// The events of one decoding, and the error that stopped it.
struct ModelStreamOutcome: Equatable, CustomStringConvertible {
    var events: [ModelEvent] = []
    /// Which limit stopped the decoder (its message counts bytes seen, which depends on the chunks).
    var error: ModelStreamError.Code?

    var description: String {
        "\(events.count) events \(events.map { $0.jsonLine() }), error \(String(describing: error))"
    }
}

/// OpenAI Chat Completions streams (and the compatible servers).
public enum OpenAIChatSplitOracle: ModelStreamSplitOracle {
    public static let dialect = ModelDialect.openAIChat
}

/// OpenAI Responses streams.
public enum OpenAIResponsesSplitOracle: ModelStreamSplitOracle {
    public static let dialect = ModelDialect.openAIResponses
}

/// Anthropic Messages streams.
public enum AnthropicSplitOracle: ModelStreamSplitOracle {
    public static let dialect = ModelDialect.anthropic
}

/// Gemini `streamGenerateContent?alt=sse` streams.
public enum GeminiSplitOracle: ModelStreamSplitOracle {
    public static let dialect = ModelDialect.gemini
}

/// Ollama's native NDJSON streams.
public enum OllamaSplitOracle: ModelStreamSplitOracle {
    public static let dialect = ModelDialect.ollama
}
