/// The common shape of the dialect decoders: one data payload in, normalized events out.
///
/// A conforming decoder implements ``decode(json:eventType:payload:)``; the shared
/// ``decode(payload:eventType:)`` skips blank payloads, lets ``decode(sentinel:)`` take non-JSON
/// markers such as `[DONE]`, and turns bad JSON into an error event naming the dialect, so that
/// decoding never throws. `eventType` is the SSE `event:` name (`"message"` when there is none).
/// The JSON is parsed from the payload's bytes where they lie (an ``SSEBatch``'s buffer, say): the
/// payload becomes a `String` only in an error message.
protocol ProviderPayloadDecoder: Sendable {
    static var dialect: ModelDialect { get }
    /// Whether a top-level JSON array is a payload (Gemini), rather than an error.
    static var acceptsArrays: Bool { get }
    /// Decodes a parsed payload: an object, or an array when ``acceptsArrays``.
    mutating func decode(json: JSONValue, eventType: String, payload: ProviderPayload) -> [ModelEvent]
    /// Decodes a payload that is not meant to be JSON, or returns `nil` to parse it as JSON.
    mutating func decode(sentinel: ProviderPayload) -> [ModelEvent]?
    mutating func finish() -> [ModelEvent]
}

extension ProviderPayloadDecoder {
    static var acceptsArrays: Bool { false }

    mutating func decode(sentinel: ProviderPayload) -> [ModelEvent]? { nil }

    /// Decodes one data payload (an SSE event's data, or an NDJSON line).
    mutating func decode(payload: String, eventType: String) -> [ModelEvent] {
        var payload = payload
        return payload.withUTF8 { decode(payload: ProviderPayload(bytes: $0), eventType: eventType) }
    }

    /// Decodes one SSE event's data, read from its bytes.
    mutating func decode(event: some SSEDataEvent) -> [ModelEvent] {
        event.withDataBytes { decode(payload: ProviderPayload(bytes: $0), eventType: event.type) }
    }

    /// Decodes one data payload, parsing its JSON from its bytes.
    mutating func decode(payload: ProviderPayload, eventType: String) -> [ModelEvent] {
        if payload.isBlank { return [] }
        if let events = decode(sentinel: payload) { return events }
        let json: JSONValue
        do {
            json = try JSONTextParser.parse(payload.bytes)
        } catch {
            return [.error(Self.invalid("is not valid JSON (\(error.message))", payload))]
        }
        switch json {
        case .object: return decode(json: json, eventType: eventType, payload: payload)
        case .array where Self.acceptsArrays: return decode(json: json, eventType: eventType, payload: payload)
        default: return [.error(Self.invalid("is not a JSON object", payload))]
        }
    }

    /// An ``ModelError/invalidJSON`` error: "`dialect`: data `problem`: `payload`".
    static func invalid(_ problem: String, _ payload: ProviderPayload) -> ModelError {
        ModelError(
            code: ModelError.invalidJSON,
            message: "\(dialect.rawValue): data \(problem): \(payload.text.trimmedWhitespace.clipped(to: 120))"
        )
    }

    /// The error `json` reports, if any: a known error shape, or anything sent as `event: error`.
    static func streamError(in json: JSONValue, eventType: String, payload: ProviderPayload) -> ModelError? {
        eventType == "error" ? reportedError(json, payload: payload) : ModelError(providerJSON: json)
    }

    /// The error of a payload known to report one, with its `message` or the payload itself as the message.
    static func reportedError(_ json: JSONValue, payload: ProviderPayload) -> ModelError {
        ModelError(providerJSON: json)
            ?? ModelError(message: json["message"]?.stringValue ?? payload.text.trimmedWhitespace.clipped(to: 500))
    }

    /// A non-empty string, or `nil`.
    static func nonEmpty(_ value: JSONValue?) -> String? {
        guard let string = value?.stringValue, !string.isEmpty else { return nil }
        return string
    }
}
