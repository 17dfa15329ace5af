/// Turns the bytes of a model provider's streaming response into ``ModelEvent``s: the single front
/// door over framing (SSE or NDJSON) and dialect.
///
/// Feed it the body as it arrives, in chunks of any size; the events never depend on where the
/// chunks split. Call ``finish()`` at the end of the body: a stream that stopped before its
/// terminator then ends with ``FinishReason/truncated``.
///
/// SSE dialects go through ``SSEDecoder`` into an ``SSEBatch``, and each event's JSON is parsed from
/// its bytes, with no `String` made for its data. Beside it, JSON written into the body *without* `data:`
/// framing (Gemini's mid-stream error object, captured payloads one per line) is found and decoded
/// too, in order. At the end of the body, an SSE event that lacks only its closing blank line is
/// kept when its data is complete JSON (captured files often stop there), and discarded otherwise,
/// as the SSE standard says. Ollama goes through ``NDJSONDecoder``, each line's JSON parsed in place.
///
/// With ``autoDetecting(limits:)`` the dialect comes from the content (see
/// ``ModelDialect/detect(_:isComplete:)``): bytes are held back until it is known. When the first
/// ``detectionLimit`` bytes, or the whole stream, do not tell, the decoder emits an error with code
/// ``ModelError/unknownDialect`` and ``FinishReason/error``, and ignores the rest.
///
/// ```swift
/// var decoder = ModelStreamDecoder(dialect: .openAIChat)
/// var events = try decoder.feed(Array("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n".utf8))
/// events += try decoder.finish()
/// // [.text("Hi", choice: 0), .finish(.truncated, choice: 0)]
/// for event in events { print(event.jsonLine()) }
/// ```
public struct ModelStreamDecoder: Sendable {
    /// The dialect being decoded; `nil` while an auto-detecting decoder has not seen enough.
    public private(set) var dialect: ModelDialect?
    /// The limits on lines and events.
    public let limits: SSELimits
    private var decoder: any ProviderPayloadDecoder
    private var sse: SSEDecoder
    /// The SSE decoder's items for the current chunk: each event's JSON is parsed from its bytes.
    private var batch = SSEBatch()
    private var scanner: UnframedJSONScanner
    private var lines: NDJSONDecoder
    /// Bytes held back until the dialect is detected.
    private var undetected: [UInt8] = []
    /// The end of the held-back lines that did not tell the dialect.
    private var undetectedLinesEnd = 0
    /// Whether auto-detection failed: the rest of the stream is ignored.
    private var gaveUp = false
    /// The limit error that stopped the decoder: every later call throws it.
    private var failure: ModelStreamError?
    /// The choices that have had their finish.
    private var finishedChoices: Set<Int> = []

    /// How many bytes auto-detection looks at before it gives up.
    public static let detectionLimit = 64 << 10

    /// A decoder for a known dialect.
    public init(dialect: ModelDialect, limits: SSELimits = .default) {
        self.init(dialect: Optional(dialect), limits: limits)
    }

    /// A decoder that detects the dialect from the first bytes of the stream.
    public static func autoDetecting(limits: SSELimits = .default) -> ModelStreamDecoder {
        ModelStreamDecoder(dialect: nil, limits: limits)
    }

    private init(dialect: ModelDialect?, limits: SSELimits) {
        self.dialect = dialect
        self.limits = limits
        decoder = (dialect ?? .openAIChat).makeDecoder()
        sse = SSEDecoder(limits: limits)
        scanner = UnframedJSONScanner(maxValueBytes: limits.maxEventBytes)
        lines = NDJSONDecoder(maxLineBytes: limits.maxLineBytes)
    }

    /// Decodes the next bytes of the body and returns the events they complete, in order.
    ///
    /// If a limit is exceeded part-way through `bytes`, the events before that point are returned and
    /// the next call throws (a call that decodes nothing throws at once); after that every call throws
    /// the same error, as ``SSEDecoder`` does. So the events before an error never depend on the chunks.
    ///
    /// - Throws: ``ModelStreamError`` when a line or an event exceeds ``limits``.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(ModelStreamError) -> [ModelEvent] {
        if let failure { throw failure }
        var events: [ModelEvent] = []
        do {
            try decode(bytes, into: &events)
        } catch {
            failure = error
            if events.isEmpty { throw error }
        }
        return events
    }

    /// Decodes `bytes`, appending events; throws where a limit is exceeded, keeping what came before.
    private mutating func decode(
        _ bytes: some Collection<UInt8>, into events: inout [ModelEvent]
    ) throws(ModelStreamError) {
        if gaveUp { return }
        guard let dialect else {
            let old = undetected.count
            undetected.append(contentsOf: bytes)
            // Detection reads complete lines one by one, so the lines already read need no second look,
            // and bytes that end no line give it nothing new (a long first line in small chunks is read once).
            let newline = undetected[old...].lastIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
            if let newline {
                let lines = undetected[undetectedLinesEnd...]
                if let detected = ModelDialect.detect(lines, isComplete: false, startsStream: undetectedLinesEnd == 0) {
                    return try start(detected, into: &events)
                }
                undetectedLinesEnd = newline + 1
            }
            if undetected.count > Self.detectionLimit {
                events += unknownDialect()
            }
            return
        }
        if dialect.usesLineFraming {
            return try decodeLines(bytes, into: &events)
        }
        let bytes = Array(bytes)
        var start = 0
        for value in scanner.scan(bytes) {
            try decodeSSE(bytes[start..<value.end], into: &events)
            events += decodePayload(value.text, eventType: "message")
            start = value.end
        }
        try decodeSSE(bytes[start...], into: &events)
    }

    /// Ends the body and returns the last events, ending with a finish for every open choice.
    ///
    /// - Throws: ``ModelStreamError`` when a limit was exceeded.
    public mutating func finish() throws(ModelStreamError) -> [ModelEvent] {
        if let failure { throw failure }
        if gaveUp { return [] }
        var events: [ModelEvent] = []
        guard let dialect else {
            if undetected.isEmpty { return [.finish(.truncated)] }
            guard let detected = ModelDialect.detect(undetected, isComplete: true) else { return unknownDialect() }
            try start(detected, into: &events)
            return events + (try finish())
        }
        if dialect.usesLineFraming {
            for line in lines.finish() { events += decodePayload(line, eventType: "message") }
        } else {
            try decodeSSE(Array("\n\n".utf8)[...], into: &events, keepingOnlyComplete: true)
            if let text = scanner.finish() { events += decodePayload(text, eventType: "message") }
            do { _ = try sse.finish() } catch { throw ModelStreamError(error) }
        }
        return events + keepingFinishedChoicesClosed(decoder.finish())
    }

    /// Sets up the detected dialect and decodes the bytes held back.
    private mutating func start(_ detected: ModelDialect, into events: inout [ModelEvent]) throws(ModelStreamError) {
        dialect = detected
        decoder = detected.makeDecoder()
        let held = undetected
        undetected = []
        try decode(held, into: &events)
    }

    private mutating func unknownDialect() -> [ModelEvent] {
        let error = ModelError(
            code: ModelError.unknownDialect,
            message: "could not tell the stream's dialect from its first \(undetected.count) bytes; name it "
                + "(one of \(ModelDialect.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
        gaveUp = true
        undetected = []
        return [.error(error), .finish(.error)]
    }

    /// Feeds the SSE decoder and decodes the events it completes. At the end of the body
    /// (`keepingOnlyComplete`), an event whose data is not complete JSON is dropped. Throws when the SSE
    /// decoder stopped at a limit, after the events before it.
    private mutating func decodeSSE(
        _ bytes: ArraySlice<UInt8>, into events: inout [ModelEvent], keepingOnlyComplete: Bool = false
    ) throws(ModelStreamError) {
        guard !bytes.isEmpty else { return }
        batch.removeAll()
        var limitError: SSEDecoderError?
        do { try sse.feed(bytes, into: &batch) } catch { limitError = error }
        for case .event(let event) in batch {
            if keepingOnlyComplete, !Self.isComplete(event.dataBytes) { continue }
            events += keepingFinishedChoicesClosed(decoder.decode(event: event))
        }
        if let limitError { throw ModelStreamError(limitError) }
    }

    /// Feeds the NDJSON splitter a line at a time, so that a too-long line stops the events where it
    /// starts, whatever the chunks.
    private mutating func decodeLines(
        _ bytes: some Collection<UInt8>, into events: inout [ModelEvent]
    ) throws(ModelStreamError) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")).map { rest.index(after: $0) } ?? rest.endIndex
            // The splitter is taken out of `self` while it calls back into `self` with each line.
            var splitter = lines
            lines = NDJSONDecoder(maxLineBytes: limits.maxLineBytes)
            defer { lines = splitter }
            do {
                try splitter.feed(rest[..<end]) { line in
                    events += keepingFinishedChoicesClosed(
                        decoder.decode(payload: ProviderPayload(bytes: line), eventType: "message"))
                }
            } catch {
                throw ModelStreamError(error)
            }
            rest = rest[end...]
        }
    }

    /// Decodes one payload of the dialect.
    private mutating func decodePayload(_ payload: String, eventType: String) -> [ModelEvent] {
        keepingFinishedChoicesClosed(decoder.decode(payload: payload, eventType: eventType))
    }

    /// Drops what a stream sends for a choice after its finish (`done: true` followed by more lines),
    /// so that each choice ends with its finish, as ``ModelEvent`` promises.
    private mutating func keepingFinishedChoicesClosed(_ events: [ModelEvent]) -> [ModelEvent] {
        var kept: [ModelEvent] = []
        for event in events {
            if let choice = event.choice {
                guard !finishedChoices.contains(choice) else { continue }
                if case .finish = event { finishedChoices.insert(choice) }
            }
            kept.append(event)
        }
        return kept
    }

    private static func isComplete(_ data: ArraySlice<UInt8>) -> Bool {
        data.withUnsafeBufferPointer { bytes in
            ProviderPayload(bytes: bytes).isExactly("[DONE]") || (try? JSONTextParser.parse(bytes)) != nil
        }
    }
}
