/// Turns the bytes of a model provider's streaming response into ``ModelEvent``s: the single front
/// door over framing (SSE or NDJSON) and dialect.
///
/// Feed it the body as it arrives, in chunks of any size; the events never depend on where the
/// chunks split. Call ``finish()`` at the end of the body: a stream that stopped before its
/// terminator then ends with ``FinishReason/truncated``.
///
/// SSE dialects go through ``SSEDecoder``. Beside it, JSON written into the body *without* `data:`
/// framing (Gemini's mid-stream error object, captured payloads one per line) is found and decoded
/// too, in order. At the end of the body, an SSE event that lacks only its closing blank line is
/// kept when its data is complete JSON (captured files often stop there), and discarded otherwise,
/// as the SSE standard says. Ollama goes through ``NDJSONDecoder``.
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
    private var scanner: UnframedJSONScanner
    private var lines: NDJSONDecoder
    /// Bytes held back until the dialect is detected.
    private var undetected: [UInt8] = []
    /// The end of the held-back lines that did not tell the dialect.
    private var undetectedLinesEnd = 0
    /// Whether auto-detection failed: the rest of the stream is ignored.
    private var gaveUp = false

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
    /// - Throws: ``ModelStreamError`` when a line or an event exceeds ``limits``.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(ModelStreamError) -> [ModelEvent] {
        if gaveUp { return [] }
        guard let dialect else {
            let old = undetected.count
            undetected.append(contentsOf: bytes)
            // Detection reads complete lines one by one, so the lines already read need no second look,
            // and bytes that end no line give it nothing new (a long first line in small chunks is read once).
            let newline = undetected[old...].lastIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
            if let newline {
                if let detected = ModelDialect.detect(undetected[undetectedLinesEnd...]) {
                    return try start(detected)
                }
                undetectedLinesEnd = newline + 1
            }
            if undetected.count > Self.detectionLimit {
                return unknownDialect()
            }
            return []
        }
        if dialect.usesLineFraming {
            let complete: [String]
            do { complete = try lines.feed(bytes) } catch { throw ModelStreamError(error) }
            return complete.flatMap { decoder.decode(payload: $0, eventType: "message") }
        }
        let bytes = Array(bytes)
        var events: [ModelEvent] = []
        var start = 0
        for value in scanner.scan(bytes) {
            events += try decodeSSE(bytes[start..<value.end])
            events += decoder.decode(payload: value.text, eventType: "message")
            start = value.end
        }
        return events + (try decodeSSE(bytes[start...]))
    }

    /// Ends the body and returns the last events, ending with a finish for every open choice.
    ///
    /// - Throws: ``ModelStreamError`` when a limit was exceeded.
    public mutating func finish() throws(ModelStreamError) -> [ModelEvent] {
        if gaveUp { return [] }
        guard let dialect else {
            if undetected.isEmpty { return [.finish(.truncated)] }
            guard let detected = ModelDialect.detect(undetected, isComplete: true) else { return unknownDialect() }
            return try start(detected) + finish()
        }
        var events: [ModelEvent] = []
        if dialect.usesLineFraming {
            events = lines.finish().flatMap { decoder.decode(payload: $0, eventType: "message") }
        } else {
            events = try decodeSSE(Array("\n\n".utf8)[...], keepingOnlyComplete: true)
            if let text = scanner.finish() { events += decoder.decode(payload: text, eventType: "message") }
            do { _ = try sse.finish() } catch { throw ModelStreamError(error) }
        }
        return events + decoder.finish()
    }

    /// Sets up the detected dialect and decodes the bytes held back.
    private mutating func start(_ detected: ModelDialect) throws(ModelStreamError) -> [ModelEvent] {
        dialect = detected
        decoder = detected.makeDecoder()
        let held = undetected
        undetected = []
        return try feed(held)
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
    /// (`keepingOnlyComplete`), an event whose data is not complete JSON is dropped.
    private mutating func decodeSSE(
        _ bytes: ArraySlice<UInt8>, keepingOnlyComplete: Bool = false
    ) throws(ModelStreamError) -> [ModelEvent] {
        guard !bytes.isEmpty else { return [] }
        let items: [SSEItem]
        do { items = try sse.feed(bytes) } catch { throw ModelStreamError(error) }
        var events: [ModelEvent] = []
        for case .event(let event) in items {
            if keepingOnlyComplete, !Self.isComplete(event.data) { continue }
            events += decoder.decode(payload: event.data, eventType: event.type)
        }
        return events
    }

    private static func isComplete(_ data: String) -> Bool {
        data.trimmedWhitespace == "[DONE]" || (try? JSONTextParser.parse(data)) != nil
    }
}
